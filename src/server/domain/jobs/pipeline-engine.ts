import { setTimeout as sleep } from 'node:timers/promises';
import { PIPELINE_REFERENCE } from '../../../contract/generation.ts';
import type { OutputEnvelope } from '../../../contract/jobs.ts';
import type { AuthContext } from '../../http/auth.ts';
import type { Services } from '../../services.ts';
import { createJob } from './create-job.ts';
import { AbortError, EngineInputError } from './engine-errors.ts';
import { cancelActiveJob } from './finish-job.ts';
import type { JobRow } from './job-row.ts';
import type { StopReason } from './job-runs.ts';
import type { Provider } from './provider.ts';

type OutputEntry = OutputEnvelope['outputs'][number];

interface Step {
  id: string;
  tool: Exclude<JobRow['tool'], 'pipeline'>;
  input: Record<string, unknown>;
}

/** What the pipeline job shows of its steps in `progress_metadata.steps` (the console draws it). */
interface StepState {
  id: string;
  tool: string;
  job_id: string | null;
  status: string;
}

const WAIT_MS = 200;
const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

/** A step failed or could not start: the pipeline fails with the step's reason. */
export class PipelineStepError extends Error {
  readonly code = 'step_failed';
}

/** `{{steps.<id>.output.url|file_id}}` replaced by the first output of that earlier step. */
export function substitute(value: unknown, done: ReadonlyMap<string, OutputEntry>): unknown {
  if (typeof value === 'string') {
    return value.replace(PIPELINE_REFERENCE, (_match, stepId: string, field: 'url' | 'file_id') => {
      const entry = done.get(stepId);
      const found = entry?.[field];
      if (!found) throw new PipelineStepError(`Step ${stepId} has no output ${field} to use.`);
      return found;
    });
  }
  if (Array.isArray(value)) return value.map((item) => substitute(item, done));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, done)]));
  }
  return value;
}

/** Runs as the person or key that started the pipeline, in its team (and folder). */
function authOf(row: JobRow): AuthContext {
  return {
    kind: row.api_key_id ? 'api_key' : 'session',
    personId: row.person_id,
    teamId: row.team_id,
    role: null,
    membership: 'member',
    sharedKeyIds: [],
    apiKeyId: row.api_key_id,
    sessionId: null,
    source: row.source === 'app' ? 'app' : 'api',
  };
}

/**
 * The `pipeline` engine: each step becomes a job of its own tool (billed, listed and filed like any other
 * job, with an Idempotency-Key per step, so a resumed pipeline never starts a step twice), run one after
 * another; later steps may use earlier outputs. The pipeline's output is its last step's output; the
 * pipeline itself costs nothing. Cancelling the pipeline cancels the step that is running.
 */
export function createPipelineEngine(services: () => Services): Provider['run'] {
  return async (input, context) => {
    const s = services();
    if (!input.jobId) throw new Error('The pipeline engine needs its job id.');
    const { rows } = await s.db.query<JobRow>('SELECT * FROM jobs WHERE id = $1', [input.jobId]);
    const pipeline = rows[0];
    if (!pipeline) throw new Error(`No pipeline job ${input.jobId}.`);
    const steps = input.body.steps as Step[];
    const states: StepState[] = steps.map((step) => ({
      id: step.id,
      tool: step.tool,
      job_id: null,
      status: 'pending',
    }));
    const showSteps = () =>
      s.db.query(`UPDATE jobs SET progress_metadata = $2 WHERE id = $1`, [
        pipeline.id,
        JSON.stringify({ steps: states }),
      ]);
    const done = new Map<string, OutputEntry>();
    let last: OutputEnvelope | null = null;

    for (const [index, step] of steps.entries()) {
      const state = states[index]!;
      const prefix = `Step ${index + 1} of ${steps.length} (${step.id}, ${step.tool})`;
      context.progress(index / steps.length, `${prefix}: starting`);
      let child: JobRow;
      try {
        const created = await createJob(
          s,
          authOf(pipeline),
          {
            tool: step.tool,
            body: substitute(step.input, done) as Record<string, unknown>,
            idempotencyKey: `pipeline:${pipeline.id}:${step.id}`,
            workspace: pipeline.folder_id ?? undefined,
          },
          // The pipeline's request was checked when it was made; outputs of earlier steps are our own files.
          async () => {},
        );
        state.job_id = created.job.id;
        const current = await s.db.query<JobRow>('SELECT * FROM jobs WHERE id = $1', [created.job.id]);
        child = current.rows[0]!;
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        state.status = 'failed';
        await showSteps();
        throw new PipelineStepError(`${prefix} could not start: ${reason}`);
      }
      state.status = child.status;
      await showSteps();

      // Follow the step; the pipeline's progress is its share of the whole.
      while (!TERMINAL.has(child.status)) {
        if (context.signal.aborted) {
          // Only a cancelled pipeline cancels its step. One stopped by a stopping server or taken over by
          // another run leaves it going: the resumed pipeline finds it again by its Idempotency-Key.
          if (context.signal.reason === ('cancelled' satisfies StopReason)) {
            await cancelActiveJob(s.db, child.id);
            state.status = 'cancelled';
            await showSteps();
          }
          throw new AbortError(context.signal.reason);
        }
        await sleep(WAIT_MS);
        const current = await s.db.query<JobRow>('SELECT * FROM jobs WHERE id = $1', [child.id]);
        child = current.rows[0]!;
        if (child.status !== state.status) {
          state.status = child.status;
          await showSteps();
        }
        context.progress(
          (index + (child.progress ?? 0)) / steps.length,
          `${prefix}: ${child.progress_message ?? child.status}`,
        );
      }
      if (child.status !== 'completed' || !child.output) {
        const reason = child.error?.message ?? `the step was ${child.status}`;
        throw new PipelineStepError(`${prefix} ${child.status}: ${reason}`);
      }
      last = child.output;
      const first = child.output.outputs[0];
      if (first) done.set(step.id, first);
    }

    if (!last?.outputs.length) throw new EngineInputError('The last step made no output.');
    return {
      outputs: last.outputs.map((entry) => ({ kind: 'stored' as const, entry })),
      billedUnits: { jobs: 1 },
      providerStatus: 'succeeded',
    };
  };
}
