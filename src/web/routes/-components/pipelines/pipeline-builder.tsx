import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { type ReactNode, useRef, useState } from 'react';
import { FormProvider, useForm, useWatch } from 'react-hook-form';
import { ApiError } from '../../../../client/api-error.ts';
import { PIPELINE_STEP_TOOLS, PIPELINE_STEPS_MAX } from '../../../../contract/generation.ts';
import type { Job } from '../../../../contract/jobs.ts';
import { api } from '../../../api/client.ts';
import { Alert } from '../../../components/alert.tsx';
import { Button } from '../../../components/button.tsx';
import { FIELD_SELECT, LabelledField } from '../../../components/labelled-field.tsx';
import { toolLabel } from '../../../format/tool-label.ts';
import { meQueryOptions } from '../../../queries/me.ts';
import { pricingQueryOptions } from '../../../queries/pricing.ts';
import type { ObjectSpec } from '../../../schema-form/field-spec.ts';
import { type FormValues, toBody } from '../../../schema-form/form-values.ts';
import { CostBar } from '../playground/cost-bar.tsx';
import { estimatePipeline } from '../playground/cost-estimate.ts';
import {
  type BuilderStep,
  describeField,
  newStep,
  pipelineBody,
  removeStep,
  renameStep,
  type StepTool,
} from './builder-steps.ts';
import { FIRST_STEP_TOOL } from './first-step.ts';
import { StepInputFields } from './step-input-fields.tsx';

/** The request the form stands for: each step's form values as its tool's body. */
function requestOf(
  steps: readonly BuilderStep[],
  specs: ReadonlyMap<string, ObjectSpec>,
  values: Record<string, FormValues>,
) {
  const inputs = new Map(
    steps.map((step) => {
      const spec = specs.get(step.key);
      const { model: _m, ...body } = spec ? toBody(values[step.key] ?? {}, spec) : {};
      return [step.key, body];
    }),
  );
  return pipelineBody(steps, inputs);
}

/** The pipeline's estimate as it is built: the sum of its steps', by the rule every job is estimated by. */
function PipelineCost({
  steps,
  specs,
}: {
  steps: readonly BuilderStep[];
  specs: ReadonlyMap<string, ObjectSpec>;
}) {
  const values = (useWatch({ name: 'inputs' }) ?? {}) as Record<string, FormValues>;
  const { data: me } = useSuspenseQuery(meQueryOptions());
  const catalog = useQuery(pricingQueryOptions()).data?.data;
  const estimate = catalog ? estimatePipeline(catalog, requestOf(steps, specs, values)) : null;
  return (
    <CostBar
      estimate={estimate}
      balance={me.balance_cents}
      unavailableReason={catalog ? null : 'Loading the prices…'}
      invalid={null}
    />
  );
}

interface PipelineBuilderProps {
  initial: BuilderStep[] | null;
  onStarted: (job: Job) => void;
}

const INPUT_CLASS =
  'h-10 w-full rounded-lg border border-zinc-300 bg-white px-2.5 text-sm text-zinc-900 shadow-sm dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100';

/**
 * A pipeline built step by step: per step a tool, a model and that model's generated input form; a URL
 * input can take an earlier step's output by picking it. One Idempotency-Key per attempt: a double
 * click or a retry of the same attempt never starts (or pays for) a second run.
 */
export function PipelineBuilder({ initial, onStarted }: PipelineBuilderProps) {
  const [steps, setSteps] = useState<BuilderStep[]>(() => initial ?? [newStep([], FIRST_STEP_TOOL)]);
  const form = useForm<{ inputs: Record<string, FormValues> }>({ defaultValues: { inputs: {} } });
  const specs = useRef(new Map<string, ObjectSpec>());
  const attempt = useRef<string | null>(null);
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<{ message: string; fields: string[] } | null>(null);

  const update = (key: string, patch: Partial<BuilderStep>) =>
    setSteps((all) => all.map((s) => (s.key === key ? { ...s, ...patch } : s)));

  async function run(event: React.FormEvent) {
    event.preventDefault();
    if (pending) return;
    setPending(true);
    setFailure(null);
    attempt.current ??= crypto.randomUUID();
    try {
      const job = await api().runPipeline({
        body: requestOf(steps, specs.current, form.getValues('inputs') ?? {}) as never,
        headers: { 'idempotency-key': attempt.current },
      });
      attempt.current = null;
      onStarted(job);
    } catch (error) {
      setFailure(failureOf(error, steps));
    } finally {
      setPending(false);
    }
  }

  return (
    <FormProvider {...form}>
      <form noValidate aria-label="Build a pipeline" onSubmit={run} className="flex flex-col gap-4">
        <ol className="flex flex-col gap-4">
          {steps.map((step, index) => (
            <li
              key={step.key}
              className="rounded-xl border border-zinc-200 bg-white p-4 dark:border-zinc-800 dark:bg-zinc-900"
            >
              <fieldset className="flex flex-col gap-4">
                <legend className="mb-2 text-sm font-semibold text-zinc-950 dark:text-white">
                  Step {index + 1}
                </legend>
                {/* Model ids are the longest of the three (elevenlabs-multilingual-v2): its column is widest. */}
                <div className="grid gap-3 sm:grid-cols-[minmax(0,2fr)_minmax(0,2fr)_minmax(0,3fr)]">
                  <LabelledField label="Name">
                    {(id) => (
                      <input
                        id={id}
                        className={INPUT_CLASS}
                        value={step.id}
                        pattern="[a-z][a-z0-9_]*"
                        onChange={(e) => {
                          attempt.current = null;
                          setSteps((all) => renameStep(all, step.key, e.target.value));
                        }}
                      />
                    )}
                  </LabelledField>
                  <LabelledField label="Tool">
                    {(id) => (
                      <select
                        id={id}
                        className={FIELD_SELECT}
                        value={step.tool}
                        onChange={(e) => {
                          attempt.current = null;
                          update(step.key, {
                            tool: e.target.value as StepTool,
                            model: null,
                            initialInput: null,
                          });
                        }}
                      >
                        {PIPELINE_STEP_TOOLS.map((tool) => (
                          <option key={tool} value={tool}>
                            {toolLabel(tool)}
                          </option>
                        ))}
                      </select>
                    )}
                  </LabelledField>
                  <ModelSelect
                    tool={step.tool}
                    model={step.model}
                    onChange={(model) => {
                      attempt.current = null;
                      update(step.key, { model });
                    }}
                  />
                </div>
                {index > 0 && (
                  <NeedsPicker
                    step={step}
                    earlier={steps.slice(0, index)}
                    onChange={(needs) => update(step.key, { needs })}
                  />
                )}
                <StepInputFields
                  key={`${step.tool}|${step.model ?? ''}`}
                  step={step}
                  earlier={steps.slice(0, index).map((s) => s.id)}
                  onSpec={(spec) => specs.current.set(step.key, spec)}
                />
                {steps.length > 1 && (
                  <div>
                    <Button
                      variant="danger-ghost"
                      size="sm"
                      onClick={() => {
                        attempt.current = null;
                        form.unregister(`inputs.${step.key}`);
                        setSteps((all) => removeStep(all, step.key));
                      }}
                    >
                      Remove step {step.id}
                    </Button>
                  </div>
                )}
              </fieldset>
            </li>
          ))}
        </ol>
        <PipelineCost steps={steps} specs={specs.current} />
        <div className="flex flex-wrap items-center gap-3">
          <Button
            variant="secondary"
            disabled={steps.length >= PIPELINE_STEPS_MAX}
            onClick={() => {
              attempt.current = null;
              setSteps((all) => [...all, newStep(all)]);
            }}
          >
            Add a step
          </Button>
          <Button type="submit" pending={pending}>
            {pending ? 'Starting…' : 'Run pipeline'}
          </Button>
        </div>
        {failure && (
          <Alert tone="error" title={failure.message}>
            {failure.fields.length > 0 && (
              <ul className="list-disc pl-5">
                {failure.fields.map((line) => (
                  <li key={line}>{line}</li>
                ))}
              </ul>
            )}
          </Alert>
        )}
      </form>
    </FormProvider>
  );
}

function failureOf(error: unknown, steps: readonly BuilderStep[]): { message: string; fields: string[] } {
  if (!(error instanceof ApiError)) {
    return {
      message: 'The pipeline could not be started: the server did not answer. Try again.',
      fields: [],
    };
  }
  const fields =
    (error.details as { fields?: Array<{ field?: unknown; message?: unknown }> } | null)?.fields ?? [];
  return {
    message: error.message,
    fields: fields.flatMap((f) =>
      typeof f.field === 'string' && typeof f.message === 'string'
        ? [`${describeField(steps, f.field)}: ${f.message}`]
        : [],
    ),
  };
}

function ModelSelect({
  tool,
  model,
  onChange,
}: {
  tool: StepTool;
  model: string | null;
  onChange: (model: string | null) => void;
}) {
  const { data } = useQuery({
    queryKey: ['tools', tool, 'schema', null],
    queryFn: () => api().getTool({ params: { tool_key: tool }, query: {} }),
    staleTime: 5 * 60_000,
  });
  const property = (data?.input_schema as { properties?: { model?: { examples?: unknown[] } } } | undefined)
    ?.properties?.model;
  const models = (property?.examples ?? []).filter((m): m is string => typeof m === 'string');
  return (
    <LabelledField label="Model">
      {(id) => (
        <select
          id={id}
          className={FIELD_SELECT}
          value={model ?? ''}
          onChange={(e) => onChange(e.target.value || null)}
        >
          <option value="">Default model</option>
          {models.map((m) => (
            <option key={m} value={m}>
              {m}
            </option>
          ))}
        </select>
      )}
    </LabelledField>
  );
}

function NeedsPicker({
  step,
  earlier,
  onChange,
}: {
  step: BuilderStep;
  earlier: readonly BuilderStep[];
  onChange: (needs: string[]) => void;
}): ReactNode {
  return (
    <fieldset className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm text-zinc-700 dark:text-zinc-300">
      <legend className="mb-1 text-sm font-medium text-zinc-800 dark:text-zinc-200">
        Also wait for (besides the steps whose output it uses)
      </legend>
      {earlier.map((other) => (
        <label key={other.key} className="flex items-center gap-1.5">
          <input
            type="checkbox"
            checked={step.needs.includes(other.id)}
            onChange={(e) =>
              onChange(
                e.target.checked ? [...step.needs, other.id] : step.needs.filter((n) => n !== other.id),
              )
            }
          />
          {other.id}
        </label>
      ))}
    </fieldset>
  );
}
