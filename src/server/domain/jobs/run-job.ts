import type { OutputEnvelope } from '../../../contract/jobs.ts';
import { AppError } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { EngineInputError } from './engine-errors.ts';
import { completeJob, failJob, type TerminalHook } from './finish-job.ts';
import type { JobRow } from './job-row.ts';
import { PipelineStepError } from './pipeline-engine.ts';
import { actualCost } from './pricing.ts';
import type { Provider, RunOutput } from './provider.ts';
import { ProviderError } from './provider-error.ts';

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
  /** Downloads an output an external provider made (guarded fetch). */
  download: (url: string) => Promise<{ body: Buffer; contentType: string }>;
  onTerminal: TerminalHook;
}

const PROGRESS_WRITE_MS = 250;

/** The failed job's error code: bad input (the person can fix it), refused input, or the provider's failure. */
function jobErrorCode(error: unknown): string {
  if (error instanceof EngineInputError) return 'invalid_input';
  if (error instanceof ProviderError || error instanceof PipelineStepError) return error.code;
  if (error instanceof AppError) return error.code === 'invalid_request' ? 'invalid_input' : error.code;
  return 'provider_error';
}
const CANCEL_CHECK_MS = 500;

/**
 * Takes a queued job (or one a crashed worker left submitting or running: its lease ran out and the
 * queue hands it out again) and runs it to one terminal state.
 */
export async function runJob(s: Services, deps: RunJobDeps, jobId: string): Promise<void> {
  const claimed = await s.db.query<JobRow>(
    `UPDATE jobs SET status = 'submitting', updated_at = now()
      WHERE id = $1 AND status IN ('queued', 'submitting', 'running') RETURNING *`,
    [jobId],
  );
  const row = claimed.rows[0];
  if (!row) return; // finished or cancelled already

  const resolved = s.catalog.resolve(row.model);
  const offer = resolved?.model.offers.find((o) => o.provider === row.provider);
  const provider = deps.providers.get(row.provider);
  if (!resolved || !offer || !provider) {
    const done = await failJob(s.db, jobId, {
      code: 'provider_unavailable',
      message: `Model ${row.model} can no longer run on ${row.provider}.`,
    });
    if (done) await deps.onTerminal(done);
    return;
  }

  if (row.cache_key) {
    const hit = await s.db.query<{ output: OutputEnvelope; billed_units: Record<string, number> }>(
      'SELECT output, billed_units FROM result_cache WHERE cache_key = $1',
      [row.cache_key],
    );
    if (hit.rows[0]) {
      const done = await completeJob(s.db, jobId, {
        output: hit.rows[0].output,
        billedUnits: hit.rows[0].billed_units,
        actualCents: 0,
        cached: true,
        providerStatus: 'cached',
      });
      if (done) await deps.onTerminal(done);
      return;
    }
  }

  await s.db.query(
    `UPDATE jobs SET status = 'running', provider_status = 'running', started_at = coalesce(started_at, now()),
            progress = 0, progress_message = 'Started', updated_at = now()
      WHERE id = $1 AND status = 'submitting'`,
    [jobId],
  );

  const controller = new AbortController();
  const watcher = setInterval(async () => {
    const current = await s.db
      .query<{ status: string }>('SELECT status FROM jobs WHERE id = $1', [jobId])
      .catch(() => null);
    if (current?.rows[0]?.status === 'cancelled') controller.abort();
  }, CANCEL_CHECK_MS);
  let lastWrite = 0;
  const progress = (fraction: number, message: string) => {
    const now = Date.now();
    if (now - lastWrite < PROGRESS_WRITE_MS && fraction < 1) return;
    lastWrite = now;
    void s.db
      .query(
        `UPDATE jobs SET progress = $2, progress_message = $3, updated_at = now() WHERE id = $1 AND status = 'running'`,
        [jobId, Math.min(1, Math.max(0, fraction)), message],
      )
      .catch(() => {});
  };

  try {
    const result = await provider.run(
      { model: resolved.model, offer, body: row.input, providerJobId: row.provider_job_id, jobId },
      {
        signal: controller.signal,
        progress,
        readInput: (url, limits) => deps.readInput(row, url, limits),
        download: deps.download,
        submitted: async (providerJobId, providerStatus) => {
          await s.db.query(
            `UPDATE jobs SET provider_job_id = $2, provider_status = $3, updated_at = now()
              WHERE id = $1 AND status = 'running'`,
            [jobId, providerJobId, providerStatus],
          );
        },
      },
    );
    const outputs: OutputEnvelope['outputs'] = [];
    for (const output of result.outputs) {
      if (output.kind === 'file') outputs.push(await deps.storeOutput(row, output));
      else if (output.kind === 'stored') outputs.push(output.entry);
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
    const done = await completeJob(s.db, jobId, {
      output: { version: 'v1', outputs },
      billedUnits: result.billedUnits,
      actualCents: actualCost(offer, result.billedUnits),
      cached: false,
      providerStatus: result.providerStatus,
    });
    if (done) await deps.onTerminal(done);
  } catch (error) {
    if (controller.signal.aborted) return; // cancelled: the cancel settled it
    const message = error instanceof Error ? error.message : String(error);
    s.log.warn('job failed', { job_id: jobId, error: message });
    const done = await failJob(s.db, jobId, { code: jobErrorCode(error), message });
    if (done) await deps.onTerminal(done);
  } finally {
    clearInterval(watcher);
  }
}
