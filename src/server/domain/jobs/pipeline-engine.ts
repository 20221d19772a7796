import { setTimeout as sleep } from 'node:timers/promises';
import { PIPELINE_REFERENCE } from '../../../contract/generation.ts';
import type { OutputEnvelope } from '../../../contract/jobs.ts';
import { dependenciesOf, type PipelineStepState, sinksOf } from '../../../contract/pipeline-graph.ts';
import { isTerminalJobStatus } from '../../../contract/values.ts';
import type { Services } from '../../services.ts';
import type { AuthContext } from '../identity/auth-context.ts';
import { createJob } from './create-job.ts';
import { AbortError, EngineInputError } from './engine-errors.ts';
import { cancelActiveJob } from './job-lifecycle.ts';
import type { JobRow } from './job-row.ts';
import type { StopReason } from './job-runs.ts';
import { withPipelineCost } from './pipeline-cost.ts';
import type { Provider, RunContext } from './provider.ts';

type OutputEntry = OutputEnvelope['outputs'][number];

interface Step {
  id: string;
  tool: Exclude<JobRow['tool'], 'pipeline'>;
  needs?: string[];
  input: Record<string, unknown>;
}

const WAIT_MS = 200;
const ACTIVE = new Set(['pending', 'queued', 'submitting', 'running']);
const STARTED = new Set(['queued', 'submitting', 'running']);
const DID_NOT_COMPLETE = new Set(['failed', 'cancelled', 'skipped']);

/** A step failed or could not start: the pipeline fails with the step's reason. */
export class PipelineStepError extends Error {
  readonly code = 'step_failed';
}

/** `{{steps.<id>.output.url|file_id}}` replaced by the first output of that step. */
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
 * job, with the Idempotency-Key `pipeline:<pipeline id>:<step id>`, so a resumed pipeline never starts a
 * step twice). A step starts once every step it depends on completed, so independent steps run at the
 * same time. A step that fails (or could not start) fails the steps that depend on it, which never start
 * and so cost nothing; the steps that do not depend on it still run, and the pipeline then fails naming
 * the failed step. The output is that of the steps nothing depends on. The pipeline's own charge is
 * nothing; its actual cost is the sum of its steps' (pipeline-cost.ts). Cancelling the pipeline cancels
 * its running steps.
 */
export function createPipelineEngine(services: () => Services): Provider['run'] {
  return async (input, context) => {
    const s = services();
    if (!input.jobId) throw new Error('The pipeline engine needs its job id.');
    const { rows } = await s.db.query<JobRow>('SELECT * FROM jobs WHERE id = $1', [input.jobId]);
    const pipeline = rows[0];
    if (!pipeline) throw new Error(`No pipeline job ${input.jobId}.`);
    return new PipelineRun(s, pipeline, input.body.steps as Step[], context).run();
  };
}

class PipelineRun {
  private readonly states: Map<string, PipelineStepState>;
  private readonly outputs = new Map<string, OutputEnvelope>();
  /** Why a step did not complete, for the pipeline's error. */
  private readonly reasons = new Map<string, string>();

  constructor(
    private readonly s: Services,
    private readonly pipeline: JobRow,
    private readonly steps: Step[],
    private readonly context: RunContext,
  ) {
    this.states = new Map(
      steps.map((step) => [
        step.id,
        {
          id: step.id,
          tool: step.tool,
          model: typeof step.input.model === 'string' ? step.input.model : null,
          needs: dependenciesOf(step),
          job_id: null,
          status: 'pending',
          progress: null,
          error: null,
          output: null,
        },
      ]),
    );
  }

  async run() {
    await this.show();
    for (;;) {
      if (this.context.signal.aborted) await this.stop();
      const changed = await this.startReady();
      if (![...this.states.values()].some((state) => ACTIVE.has(state.status))) break;
      if (changed) await this.show();
      await sleep(WAIT_MS);
      if (this.context.signal.aborted) await this.stop();
      await this.follow();
    }
    await this.show();
    return this.result();
  }

  /** Writes the step states where the console reads them. */
  private async show() {
    await this.s.db.query('UPDATE jobs SET progress_metadata = $2 WHERE id = $1', [
      this.pipeline.id,
      JSON.stringify({ steps: [...this.states.values()] }),
    ]);
  }

  /** Starts every pending step whose dependencies completed; skips those behind one that did not. */
  private async startReady(): Promise<boolean> {
    let changed = false;
    for (const step of this.steps) {
      const state = this.states.get(step.id)!;
      if (state.status !== 'pending') continue;
      const deps = state.needs.map((id) => this.states.get(id)!);
      const blocker = deps.find((dep) => DID_NOT_COMPLETE.has(dep.status));
      if (blocker) {
        const root = this.rootOf(blocker.id);
        state.status = 'skipped';
        state.error = `Not run: step ${root} ${this.states.get(root)!.status}.`;
        changed = true;
        continue;
      }
      if (deps.some((dep) => dep.status !== 'completed')) continue;
      await this.start(step, state);
      changed = true;
    }
    return changed;
  }

  /** The step that did not complete and made this one skipped (itself when it failed on its own). */
  private rootOf(id: string): string {
    const state = this.states.get(id)!;
    if (state.status !== 'skipped') return id;
    const blocker = state.needs.find((dep) => DID_NOT_COMPLETE.has(this.states.get(dep)!.status));
    return blocker ? this.rootOf(blocker) : id;
  }

  private async start(step: Step, state: PipelineStepState) {
    try {
      const done = new Map(
        [...this.outputs].flatMap(([id, output]) => (output.outputs[0] ? [[id, output.outputs[0]]] : [])),
      );
      const created = await createJob(
        this.s,
        authOf(this.pipeline),
        {
          tool: step.tool,
          body: substitute(step.input, done) as Record<string, unknown>,
          idempotencyKey: `pipeline:${this.pipeline.id}:${step.id}`,
          workspace: this.pipeline.folder_id ?? undefined,
        },
        // The pipeline's request was checked when it was made; outputs of other steps are our own files.
        async () => {},
      );
      state.job_id = created.job.id;
      const row = await this.rowOf(created.job.id);
      if (row) this.absorb(state, row);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      state.status = 'failed';
      state.error = `Could not start: ${reason}`;
      this.reasons.set(step.id, `could not start: ${reason}`);
    }
  }

  /** Takes a step job's row into its state. */
  private absorb(state: PipelineStepState, row: JobRow) {
    state.status = row.status;
    state.model = row.model;
    state.progress = row.status === 'completed' ? 1 : row.progress;
    // A failed or cancelled step gives its hold back: the console says so on the step, not "0".
    state.estimated_cost_cents = row.estimated_cost_cents;
    state.charged_cents = isTerminalJobStatus(row.status) ? (row.actual_cost_cents ?? 0) : null;
    if (row.status === 'completed' && row.output) {
      this.outputs.set(state.id, row.output);
      const first = row.output.outputs[0];
      state.output = first
        ? { url: first.url, media_type: first.media_type, thumbnail_url: first.thumbnail_url }
        : null;
    } else if (row.status === 'completed') {
      state.status = 'failed';
      state.error = 'The step made no output.';
      this.reasons.set(state.id, 'made no output');
    } else if (row.status === 'failed' || row.status === 'cancelled') {
      state.error = row.error?.message ?? `The step was ${row.status}.`;
      this.reasons.set(state.id, `${row.status}: ${state.error}`);
    }
  }

  private async rowOf(jobId: string): Promise<JobRow | null> {
    const { rows } = await this.s.db.query<JobRow>('SELECT * FROM jobs WHERE id = $1', [jobId]);
    return rows[0] ?? null;
  }

  /** Reads the running steps' jobs; the pipeline's progress is the steps' share of the whole. */
  private async follow() {
    const running = [...this.states.values()].filter((state) => STARTED.has(state.status));
    if (running.length) {
      const { rows } = await this.s.db.query<JobRow>('SELECT * FROM jobs WHERE id = ANY($1::text[])', [
        running.map((state) => state.job_id),
      ]);
      let changed = false;
      for (const row of rows) {
        const state = running.find((r) => r.job_id === row.id)!;
        const before = `${state.status}:${state.progress}`;
        this.absorb(state, row);
        if (`${state.status}:${state.progress}` !== before) changed = true;
      }
      if (changed) await this.show();
    }
    const states = [...this.states.values()];
    const share = states.reduce(
      (sum, state) => sum + (ACTIVE.has(state.status) ? (state.progress ?? 0) : 1),
      0,
    );
    const now = states.filter((state) => STARTED.has(state.status)).map((state) => state.id);
    this.context.progress(share / states.length, now.length ? `Running ${now.join(', ')}` : 'Starting');
  }

  /**
   * The pipeline was stopped. Only a cancel stops its steps: a pipeline stopped by a stopping server or
   * taken over by another run leaves them going, and the resumed pipeline finds them by their keys.
   */
  private async stop(): Promise<never> {
    const reason = this.context.signal.reason;
    if (reason === ('cancelled' satisfies StopReason)) {
      for (const state of this.states.values()) {
        if (STARTED.has(state.status) && state.job_id) {
          const cancelled = await cancelActiveJob(this.s.db, state.job_id);
          // A step that ended meanwhile keeps how it ended (and what it was charged).
          const row = cancelled ?? (await this.rowOf(state.job_id));
          if (row) this.absorb(state, row);
        } else if (state.status === 'pending') {
          state.status = 'skipped';
          state.error = 'Not run: the pipeline was cancelled.';
        }
      }
      await this.show();
      await withPipelineCost(this.s.db, await this.rowOf(this.pipeline.id));
    }
    throw new AbortError(reason);
  }

  private result() {
    const failed = this.steps.filter((step) => this.reasons.has(step.id));
    if (failed.length) {
      const skipped = this.steps.filter((step) => this.states.get(step.id)!.status === 'skipped');
      const what = failed
        .map((step) => `Step ${step.id} (${step.tool}) ${this.reasons.get(step.id)}`)
        .join('; ');
      const rest = skipped.length
        ? ` Not run, as they depend on it: ${skipped.map((step) => step.id).join(', ')}.`
        : '';
      throw new PipelineStepError(`${what.replace(/\.?$/, '.')}${rest}`);
    }
    const outputs = sinksOf(this.steps).flatMap((step) => this.outputs.get(step.id)?.outputs ?? []);
    if (!outputs.length) throw new EngineInputError('The last steps made no output.');
    return {
      outputs: outputs.map((entry) => ({ kind: 'stored' as const, entry })),
      billedUnits: { jobs: 1 },
      providerStatus: 'succeeded',
    };
  }
}
