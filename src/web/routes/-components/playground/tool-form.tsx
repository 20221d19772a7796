import { queryOptions, useSuspenseQuery } from '@tanstack/react-query';
import type { ToolKey } from '../../../../contract/common.ts';
import type { Job } from '../../../../contract/jobs.ts';
import type { PriceCatalogEntry } from '../../../../contract/pricing.ts';
import { isAnalysis, toolSchemaQueryOptions } from '../../../queries/generation.ts';
import { asSchema, type JsonSchema } from '../../../schema-form/json-schema.ts';
import type { ModelRef } from './model-choice.ts';
import { RunForm } from './run-form.tsx';

interface ToolFormProps {
  tool: ToolKey;
  model: string;
  modelRef: ModelRef;
  entry: PriceCatalogEntry | undefined;
  /** Changes when the page asks for a fresh form (values waiting in the prefill store). */
  generation: number;
  /** Another model's form is on its way: this one takes no input and starts nothing. */
  opening: boolean;
  onCreated: (job: Job) => void;
  onSwitchModel: (model: string, body: Record<string, unknown>) => void;
}

/**
 * Video analysis's form is built from the contract's request with zod (analysis-schema.ts), so that code
 * loads only when the model is picked, not with every visit to the playground.
 */
const analysisSchemaQueryOptions = queryOptions({
  queryKey: ['playground', 'analysis-input-schema'],
  queryFn: async (): Promise<JsonSchema> => (await import('./analysis-schema.ts')).analysisInputSchema(),
  staleTime: Number.POSITIVE_INFINITY,
});

/**
 * Reads the model's input schema (`GET /v2/tools/{key}?model=`) and opens a fresh form for it: a new
 * tool, model or prefill starts a new form (with that model's draft), never a form of another schema.
 */
export function ToolForm(props: ToolFormProps) {
  return isAnalysis({ tool: props.tool, body: { model: props.model } }) ? (
    <AnalysisForm {...props} />
  ) : (
    <ModelForm {...props} />
  );
}

function ModelForm(props: ToolFormProps) {
  const { data: metadata } = useSuspenseQuery(toolSchemaQueryOptions(props.tool, props.modelRef.model));
  return <FreshForm {...props} schema={asSchema(metadata.input_schema)} />;
}

function AnalysisForm(props: ToolFormProps) {
  const { data: schema } = useSuspenseQuery(analysisSchemaQueryOptions);
  return <FreshForm {...props} schema={schema} />;
}

function FreshForm({
  tool,
  model,
  modelRef,
  entry,
  generation,
  opening,
  onCreated,
  onSwitchModel,
  schema,
}: ToolFormProps & { schema: JsonSchema }) {
  return (
    <RunForm
      key={`${tool}|${model}|${generation}`}
      tool={tool}
      model={model}
      baseModel={modelRef.model}
      pinned={modelRef.provider}
      entry={entry}
      inputSchema={schema}
      opening={opening}
      onCreated={onCreated}
      onSwitchModel={onSwitchModel}
    />
  );
}
