import type { OutputEnvelope } from '../../../contract/jobs.ts';
import { isDatabaseUnavailable } from '../../db/unavailable.ts';
import { AppError } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { retiredModelMessage } from '../catalog/lifecycle.ts';
import type { ProviderOffer } from '../catalog/types.ts';
import { EngineInputError } from './engine-errors.ts';
import { handBack, letGoAfterThrow, RUN_FAILURES_MAX, renewLease } from './job-lease.ts';
import { claimJob, completeJob, failJob, startRun, type TerminalHook } from './job-lifecycle.ts';
import type { JobRow } from './job-row.ts';
import type { StopReason } from './job-runs.ts';
import { PipelineStepError } from './pipeline-engine.ts';
import { actualCost } from './pricing.ts';
import type { InputFile, Provider, RunOutput, RunResult } from './provider.ts';
import { ProviderError } from './provider-error.ts';
import { startRemoteJob } from './run-remote-job.ts';

/** How a job's outputs become stored files (files + lineage); provided by the storage wiring. */
export type StoreOutput = (
  row: JobRow,
  output: Extract<RunOutput, { kind: 'file' }>,
) => Promise<OutputEnvelope['outputs'][number]>;

export interface RunJobDeps {
  providers: ReadonlyMap<string, Provider>;
  storeOutput: StoreOutput;
  readInput: (
    row: JobRow,
    url: string,
    limits?: { maxBytes?: number },
  ) => Promise<{ body: Buffer; contentType: string }>;
  /** An input URL as a file an external provider can be given by URL or streamed bytes. */
  inputFile: (row: JobRow, url: string) => Promise<InputFile>;
  /** Downloads an output an external provider made (guarded fetch). */
  download: (url: string) => Promise<{ body: Buffer; contentType: string }>;
  /** Removes files a run stored for a job that ended without them (the run lost its job). */
  discardOutputs: (row: JobRow, fileIds: readonly string[]) => Promise<void>;
  onTerminal: TerminalHook;
}

const PROGRESS_WRITE_MS = 250;

/** The failed job's error code: bad input (the person can fix it), refused input, or the provider's failure. */
export function failureCode(error: unknown): string {
  if (error instanceof EngineInputError) return 'invalid_input';
  if (error instanceof ProviderError || error instanceof PipelineStepError) return error.code;
  if (error instanceof AppError) return error.code === 'invalid_request' ? 'invalid_input' : error.code;
  return 'provider_error';
}
const CANCEL_CHECK_MS = 500;

/** A run's own statement met the database away (an engine's or provider's failure is theirs). */
function databaseLost(error: unknown): boolean {
  const theirs =
    error instanceof EngineInputError ||
    error instanceof ProviderError ||
    error instanceof PipelineStepError ||
    error instanceof AppError;
  return !theirs && isDatabaseUnavailable(error);
}

/**
 * Takes a queued job (or one whose run is gone: its server died or its lease ran out, see job-lifecycle.ts)
 * and runs it to one terminal state. The run holds the job through a lease token: it renews the lease
 * while it runs, and writes progress, outputs and the terminal state only while the token is still the
 * job's; a run that lost its job discards the files it made.
 */
export async function runJob(s: Services, deps: RunJobDeps, jobId: string): Promise<void> {
  const lease = await claimJob(s.db, jobId, s.jobRuns.instance(), s.jobRuns.leaseSeconds, {
    start: !s.jobRuns.stopping(),
  });
  if (!lease) return; // finished, cancelled, or a live run holds it
  const { row, token, leftoverFiles } = lease;
  // An earlier run died after storing outputs it never finished with: they go before this run makes its own.
  if (leftoverFiles.length) await deps.discardOutputs(row, leftoverFiles);
  if (s.jobRuns.stopping()) {
    // Taken while the server stops: the next server runs it.
    await handBack(s, [{ jobId, token }]);
    return;
  }
  const controller = new AbortController();
  const run = runClaimed(s, deps, row, token, controller).catch((error: unknown) =>
    afterThrow(s, deps, { jobId, token, controller }, error),
  );
  await s.jobRuns.track(jobId, token, controller, run);
}

/**
 * A run that threw (not one stopped from outside) lets go of its job for another try, and fails it once
 * it has thrown RUN_FAILURES_MAX times: before, the job showed `running` until its lease ran out, and a
 * fault that always throws was tried again every lease, for ever. Rethrows to let the queue retry.
 */
async function afterThrow(
  s: Services,
  deps: RunJobDeps,
  run: { jobId: string; token: string; controller: AbortController },
  error: unknown,
): Promise<void> {
  if (run.controller.signal.aborted) throw error;
  // The database away is no fault of the job's: it is tried again as often as it takes.
  const failures = await letGoAfterThrow(s.db, run.jobId, run.token, {
    count: !databaseLost(error),
  }).catch(() => null);
  s.log.warn('job run threw', { job_id: run.jobId, failures, error: String(error) });
  if (failures === null || failures < RUN_FAILURES_MAX) throw error;
  const failed = await failJob(
    s.db,
    run.jobId,
    { code: 'internal_error', message: `The job could not be run: it failed ${failures} times on our side.` },
    { runToken: run.token },
  );
  if (failed) await deps.onTerminal(failed);
}

async function runClaimed(
  s: Services,
  deps: RunJobDeps,
  row: JobRow,
  token: string,
  controller: AbortController,
): Promise<void> {
  const jobId = row.id;
  s.log.info('job started', { job_id: jobId, tool: row.tool, model: row.model, provider: row.provider });
  const onTerminal = async (done: JobRow | null) => {
    if (done) await deps.onTerminal(done);
  };
  const resolved = s.catalog.resolve(row.model);
  const offer = resolved?.model.offers.find((o) => o.provider === row.provider);
  const provider = deps.providers.get(row.provider);
  if (!resolved || !offer || !provider) {
    const error = {
      code: 'provider_unavailable',
      message: `Model ${row.model} can no longer run on ${row.provider}.`,
    };
    await onTerminal(await failJob(s.db, jobId, error, { runToken: token }));
    return;
  }

  // Queued before its model (or this provider's offer of it) retired, and not yet sent: it would fail or
  // run on a model its provider no longer serves. It ends here, its hold returned, naming the replacement.
  // A job already at the provider is followed to its end as usual.
  const retired = s.catalog.retirement(resolved.model, offer);
  if (retired && !row.provider_sent_at && !row.provider_job_id) {
    const error = { code: 'model_retired', message: retiredModelMessage(row.model, retired) };
    s.log.info('job refused: model retired', { job_id: jobId, model: row.model, provider: row.provider });
    await onTerminal(await failJob(s.db, jobId, error, { runToken: token }));
    return;
  }

  // `submitting`: the claim saw a cached answer (else it marked the job running already).
  if (row.status === 'submitting' && row.cache_key) {
    // A cached answer's provider job is the run that made it (spec 2.1: provider_job_id is a string).
    const hit = await s.db.query<{
      output: OutputEnvelope;
      billed_units: Record<string, number>;
      provider_job_id: string | null;
    }>(
      `SELECT c.output, c.billed_units, source.provider_job_id
         FROM result_cache c LEFT JOIN jobs source ON source.id = c.source_job_id
        WHERE c.cache_key = $1`,
      [row.cache_key],
    );
    if (hit.rows[0]) {
      const done = await completeJob(
        s.db,
        jobId,
        {
          output: hit.rows[0].output,
          billedUnits: hit.rows[0].billed_units,
          actualCents: 0,
          cached: true,
          providerStatus: 'cached',
          providerJobId: hit.rows[0].provider_job_id,
        },
        token,
      );
      await onTerminal(done);
      return;
    }
  }

  // A run that lost its job meanwhile finds out from its watcher below, as it would while running.
  if (row.status === 'submitting') await startRun(s.db, jobId, token);

  const leaseSeconds = s.jobRuns.leaseSeconds;
  const renewEveryMs = Math.max(CANCEL_CHECK_MS, (leaseSeconds * 1000) / 3);
  let lastRenewal = Date.now();
  const watcher = setInterval(async () => {
    // Renews the lease a few times per lease; in between, only looks for a cancel or a takeover.
    if (Date.now() - lastRenewal >= renewEveryMs) {
      lastRenewal = Date.now();
      await renewLease(s.db, jobId, token, leaseSeconds).catch(() => true);
    }
    const current = await s.db
      .query<{ status: string; ours: boolean }>(
        'SELECT status, run_token = $2 AS ours FROM jobs WHERE id = $1',
        [jobId, token],
      )
      .catch(() => null);
    const state = current?.rows[0];
    if (state?.status === 'cancelled') controller.abort('cancelled' satisfies StopReason);
    else if (state && !state.ours) controller.abort('lost' satisfies StopReason);
  }, CANCEL_CHECK_MS);
  // A stopped run has nothing more to watch (and a stopping server no database to ask).
  controller.signal.addEventListener('abort', () => clearInterval(watcher), { once: true });
  // The start wrote progress 0 just now; a job done within PROGRESS_WRITE_MS writes none (its end clears it).
  let lastWrite = Date.now();
  const progress = (fraction: number, message: string) => {
    if (controller.signal.aborted) return;
    const now = Date.now();
    if (now - lastWrite < PROGRESS_WRITE_MS) return;
    lastWrite = now;
    // Progress renews the lease; a run that lost its job no longer writes it (no flapping between runs).
    void s.db
      .query(
        `UPDATE jobs SET progress = $2, progress_message = $3, lease_expires_at = now() + make_interval(secs => $5),
                updated_at = now()
          WHERE id = $1 AND status = 'running' AND run_token = $4`,
        [jobId, Math.min(1, Math.max(0, fraction)), message, token, leaseSeconds],
      )
      .catch(() => {});
  };

  try {
    const context = {
      signal: controller.signal,
      progress,
      readInput: (url: string, limits?: { maxBytes?: number }) => deps.readInput(row, url, limits),
      inputFile: (url: string) => deps.inputFile(row, url),
      download: deps.download,
      // A local engine names its run (local-provider.ts): the job's provider_job_id.
      submitted: async (providerJobId: string, providerStatus: string) => {
        await s.db.query(
          `UPDATE jobs SET provider_job_id = $2, provider_status = $3, updated_at = now()
            WHERE id = $1 AND status = 'running' AND run_token = $4`,
          [jobId, providerJobId, providerStatus, token],
        );
      },
    };
    if (provider.remote) {
      // Submitted once and handed to this process's follower: the worker is free while the provider works.
      await startRemoteJob(s, deps, { row, token, context }, provider.remote, resolved.model, offer);
      return;
    }
    const result = await provider.run(
      { model: resolved.model, offer, body: row.input, providerJobId: row.provider_job_id, jobId },
      context,
    );
    await storeAndComplete(s, deps, row, token, offer, result, controller.signal);
  } catch (error) {
    // Cancelled (the cancel settled it), taken over, or handed back by a stopping server.
    if (controller.signal.aborted) return;
    // The database went away under the run (its end not written): the job is run again, not failed.
    if (databaseLost(error)) throw error;
    const message = error instanceof Error ? error.message : String(error);
    s.log.warn('job failed', { job_id: jobId, error: message });
    await onTerminal(await failJob(s.db, jobId, { code: failureCode(error), message }, { runToken: token }));
  } finally {
    clearInterval(watcher);
  }
}

/**
 * Stores a run's outputs as files and completes the job under the run's token. Files stored for a job
 * that ended another way meanwhile (a cancel, a takeover) are no one's output and are removed; so are
 * they when storing fails part way (the error is rethrown for the caller to fail the job).
 */
export async function storeAndComplete(
  s: Services,
  deps: RunJobDeps,
  row: JobRow,
  token: string,
  offer: ProviderOffer,
  result: RunResult,
  signal: AbortSignal,
): Promise<void> {
  const madeFiles: string[] = [];
  try {
    const outputs: OutputEnvelope['outputs'] = [];
    for (const output of result.outputs) {
      if (signal.aborted) break;
      if (output.kind === 'file') {
        const entry = await deps.storeOutput(row, output);
        if (entry.file_id) madeFiles.push(entry.file_id);
        outputs.push(entry);
      } else if (output.kind === 'stored') outputs.push(output.entry);
      else {
        outputs.push({
          url: null,
          file_id: null,
          media_type: output.mediaType,
          size_bytes: null,
          thumbnail_url: null,
          data: output.data as never,
        });
      }
    }
    const done = signal.aborted
      ? null
      : await completeJob(
          s.db,
          row.id,
          {
            output: { version: 'v1', outputs },
            billedUnits: result.billedUnits,
            actualCents: actualCost(offer, result.billedUnits),
            cached: false,
            providerStatus: result.providerStatus,
          },
          token,
        );
    if (!done) await deps.discardOutputs(row, madeFiles);
    else await deps.onTerminal(done);
  } catch (error) {
    if (madeFiles.length) await deps.discardOutputs(row, madeFiles).catch(() => {});
    throw error;
  }
}
