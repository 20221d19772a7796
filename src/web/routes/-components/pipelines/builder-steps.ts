import { PIPELINE_STEP_TOOLS } from '../../../../contract/generation.ts';

/* The builder's steps apart from their generated input fields: pure, so the rules are tested without a browser. */

export type StepTool = (typeof PIPELINE_STEP_TOOLS)[number];

export interface BuilderStep {
  /** The React key and form name of the step's inputs; stays when the step is renamed. */
  key: string;
  id: string;
  tool: StepTool;
  /** null: the tool's default model. */
  model: string | null;
  /** Extra steps to wait for, besides those whose output an input uses. */
  needs: string[];
  /** The input a re-run starts from (taken into the form once). */
  initialInput: Record<string, unknown> | null;
}

let counter = 0;
const nextKey = () => `k${++counter}`;

/** `step1`, `step2`…: the first such name no step has yet. */
export function freshStepId(steps: readonly BuilderStep[]): string {
  const taken = new Set(steps.map((s) => s.id));
  for (let n = steps.length + 1; ; n++) if (!taken.has(`step${n}`)) return `step${n}`;
}

export function newStep(steps: readonly BuilderStep[], tool: StepTool = 'image'): BuilderStep {
  return { key: nextKey(), id: freshStepId(steps), tool, model: null, needs: [], initialInput: null };
}

/** A finished pipeline's steps, to run again with changes. */
export function stepsFromInput(input: Record<string, unknown>): BuilderStep[] {
  const raw = Array.isArray(input.steps) ? (input.steps as Array<Record<string, unknown>>) : [];
  return raw.flatMap((step) => {
    const tool = PIPELINE_STEP_TOOLS.find((t) => t === step.tool);
    if (!tool || typeof step.id !== 'string') return [];
    const body = (step.input ?? {}) as Record<string, unknown>;
    return [
      {
        key: nextKey(),
        id: step.id,
        tool,
        model: typeof body.model === 'string' ? body.model : null,
        needs: Array.isArray(step.needs) ? step.needs.filter((n): n is string => typeof n === 'string') : [],
        initialInput: body,
      },
    ];
  });
}

/** The reference an input uses for another step's output. */
export function outputReference(stepId: string): string {
  return `{{steps.${stepId}.output.url}}`;
}

/** A renamed step: the steps that used its output or waited for it follow the new name. */
export function renameStep(steps: readonly BuilderStep[], key: string, id: string): BuilderStep[] {
  const old = steps.find((s) => s.key === key)?.id;
  return steps.map((s) =>
    s.key === key ? { ...s, id } : { ...s, needs: s.needs.map((n) => (n === old ? id : n)) },
  );
}

/** A removed step is no longer waited for. */
export function removeStep(steps: readonly BuilderStep[], key: string): BuilderStep[] {
  const gone = steps.find((s) => s.key === key)?.id;
  return steps.filter((s) => s.key !== key).map((s) => ({ ...s, needs: s.needs.filter((n) => n !== gone) }));
}

/** The pipeline request: each step's body with its model first, `needs` only when there are some. */
export function pipelineBody(
  steps: readonly BuilderStep[],
  inputs: ReadonlyMap<string, Record<string, unknown>>,
): { steps: Array<Record<string, unknown>> } {
  return {
    steps: steps.map((step) => ({
      id: step.id,
      tool: step.tool,
      ...(step.needs.length ? { needs: step.needs } : {}),
      input: { ...(step.model ? { model: step.model } : {}), ...(inputs.get(step.key) ?? {}) },
    })),
  };
}

/** A 422's field path (`steps.1.input.prompt`) told as the step and field a person sees. */
export function describeField(steps: readonly BuilderStep[], field: string): string {
  const match = /^steps\.(\d+)(?:\.(.+))?$/.exec(field);
  if (!match) return field;
  const step = steps[Number(match[1])];
  const rest = (match[2] ?? '').replace(/^input\.?/, '');
  return `Step ${step?.id ?? Number(match[1]) + 1}${rest ? ` · ${rest}` : ''}`;
}
