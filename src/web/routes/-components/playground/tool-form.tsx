import { useSuspenseQuery } from '@tanstack/react-query';
import type { ToolKey } from '../../../../contract/common.ts';
import type { Job } from '../../../../contract/jobs.ts';
import type { PriceCatalogEntry } from '../../../../contract/pricing.ts';
import { isAnalysis, toolSchemaQueryOptions } from '../../../queries/generation.ts';
import { asSchema } from '../../../schema-form/json-schema.ts';
import { analysisInputSchema } from './analysis-schema.ts';
import type { ModelRef } from './model-choice.ts';
import { RunForm } from './run-form.tsx';

interface ToolFormProps {
  tool: ToolKey;
  model: string;
  modelRef: ModelRef;
  entry: PriceCatalogEntry | undefined;
  /** Changes when the page asks for a fresh form (values waiting in the prefill store). */
  generation: number;
  onCreated: (job: Job) => void;
  onSwitchModel: (model: string, body: Record<string, unknown>) => void;
}

/**
 * Reads the model's input schema (`GET /v2/tools/{key}?model=`) and opens a fresh form for it: a new
 * tool, model or prefill starts a new form (with that model's draft), never a form of another schema.
 */
export function ToolForm({
  tool,
  model,
  modelRef,
  entry,
  generation,
  onCreated,
  onSwitchModel,
}: ToolFormProps) {
  const { data: metadata } = useSuspenseQuery(toolSchemaQueryOptions(tool, modelRef.model));
  const schema = isAnalysis({ tool, body: { model } })
    ? analysisInputSchema()
    : asSchema(metadata.input_schema);
  return (
    <RunForm
      key={`${tool}|${model}|${generation}`}
      tool={tool}
      model={model}
      baseModel={modelRef.model}
      pinned={modelRef.provider}
      entry={entry}
      inputSchema={schema}
      onCreated={onCreated}
      onSwitchModel={onSwitchModel}
    />
  );
}
