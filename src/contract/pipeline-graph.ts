import { z } from 'zod';

/*
 * A pipeline run is a small DAG: a step waits for the steps it `needs` and for every step its input refers
 * to (`{{steps.<id>.output.url}}`). Shared by the request check, the engine and the console's drawing.
 */

/** Ours: at most this many steps in one chain of dependencies (the longest path, counted in steps). */
export const PIPELINE_DEPTH_MAX = 5;

/** `{{steps.<id>.output.url}}` (or `.file_id`) inside a step input refers to that step's first output. */
export const PIPELINE_REFERENCE = /\{\{\s*steps\.([a-z][a-z0-9_]*)\.output\.(url|file_id)\s*\}\}/g;

export interface GraphStep {
  id: string;
  needs?: readonly string[] | undefined;
  input: unknown;
}

/** Ids of the steps a value refers to, in order of appearance (repeats kept). */
export function referencesIn(value: unknown, found: string[] = []): string[] {
  if (typeof value === 'string') {
    for (const match of value.matchAll(PIPELINE_REFERENCE)) found.push(match[1] ?? '');
  } else if (Array.isArray(value)) {
    for (const item of value) referencesIn(item, found);
  } else if (value && typeof value === 'object') {
    for (const item of Object.values(value)) referencesIn(item, found);
  }
  return found;
}

/** The steps a step waits for: its `needs` and its input's references, each once. */
export function dependenciesOf(step: GraphStep): string[] {
  return [...new Set([...(step.needs ?? []), ...referencesIn(step.input)])];
}

export interface GraphProblem {
  index: number;
  field: 'needs' | 'input';
  message: string;
}

/**
 * What is wrong with the graph, each at the step and field that caused it: a dependency on a step that is
 * not in the run, a cycle (a step that waits, through others or itself, for itself), or a chain longer
 * than PIPELINE_DEPTH_MAX. Steps may be listed in any order.
 */
export function checkGraph(steps: readonly GraphStep[]): GraphProblem[] {
  const problems: GraphProblem[] = [];
  const ids = new Set(steps.map((s) => s.id));
  const fieldOf = (step: GraphStep, dep: string) => (step.needs?.includes(dep) ? 'needs' : 'input');
  steps.forEach((step, index) => {
    for (const dep of dependenciesOf(step)) {
      if (!ids.has(dep)) {
        problems.push({ index, field: fieldOf(step, dep), message: `refers to ${dep}, which is not a step` });
      }
    }
  });
  if (problems.length) return problems;

  const byId = new Map(steps.map((s, index) => [s.id, { step: s, index }]));
  const cycle = findCycle(steps, byId);
  if (cycle) {
    const [from, to] = cycle;
    const at = byId.get(from!)!;
    return [{ index: at.index, field: fieldOf(at.step, to!), message: `cycle: ${cycle.join(' → ')}` }];
  }
  for (const [id, depth] of depthsOf(steps)) {
    if (depth + 1 > PIPELINE_DEPTH_MAX) {
      const at = byId.get(id)!;
      problems.push({
        index: at.index,
        field: at.step.needs?.length ? 'needs' : 'input',
        message: `is ${depth + 1} steps deep; at most ${PIPELINE_DEPTH_MAX} steps may depend on one another in a chain`,
      });
      break;
    }
  }
  return problems;
}

/** The first cycle found, as step ids from a step back to itself; null when there is none. */
function findCycle(
  steps: readonly GraphStep[],
  byId: Map<string, { step: GraphStep; index: number }>,
): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (id: string): string[] | null => {
    if (state.get(id) === 'done') return null;
    if (state.get(id) === 'open') return [...path.slice(path.indexOf(id)), id];
    state.set(id, 'open');
    path.push(id);
    for (const dep of dependenciesOf(byId.get(id)!.step)) {
      const found = visit(dep);
      if (found) return found;
    }
    path.pop();
    state.set(id, 'done');
    return null;
  };
  for (const step of steps) {
    const found = visit(step.id);
    if (found) return found;
  }
  return null;
}

/**
 * Each step's depth: 0 for a step that waits for nothing, else one more than the deepest step it waits for.
 * Only for a graph without unknown ids or cycles (checkGraph first).
 */
export function depthsOf(steps: readonly GraphStep[]): Map<string, number> {
  const byId = new Map(steps.map((s) => [s.id, s]));
  const depths = new Map<string, number>();
  const depthOf = (id: string): number => {
    const known = depths.get(id);
    if (known !== undefined) return known;
    const deps = dependenciesOf(byId.get(id)!);
    const depth = deps.length ? 1 + Math.max(...deps.map(depthOf)) : 0;
    depths.set(id, depth);
    return depth;
  };
  for (const step of steps) depthOf(step.id);
  return depths;
}

/** Steps no other step waits for: their outputs are the pipeline's output, in the order listed. */
export function sinksOf<T extends GraphStep>(steps: readonly T[]): T[] {
  const needed = new Set(steps.flatMap(dependenciesOf));
  return steps.filter((s) => !needed.has(s.id));
}

/** Where a step is in a run, as the pipeline job shows it in `progress_metadata.steps`. */
export const PIPELINE_STEP_STATUSES = [
  'pending',
  'queued',
  'submitting',
  'running',
  'completed',
  'failed',
  'cancelled',
  'skipped',
] as const;

export const PipelineStepState = z.object({
  id: z.string(),
  tool: z.string(),
  model: z.string().nullable().optional(),
  needs: z.array(z.string()).default([]),
  job_id: z.string().nullable(),
  status: z.enum(PIPELINE_STEP_STATUSES),
  progress: z.number().nullable().optional(),
  error: z.string().nullable().optional(),
  /** What the step's job held when it was made (its estimate), and what it was charged once it ended. */
  estimated_cost_cents: z.number().nullable().optional(),
  charged_cents: z.number().nullable().optional(),
  output: z
    .object({
      url: z.string().nullable(),
      media_type: z.string(),
      thumbnail_url: z.string().nullable(),
    })
    .nullable()
    .optional(),
});
export type PipelineStepState = z.infer<typeof PipelineStepState>;
