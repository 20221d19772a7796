import type { Services } from '../../services.ts';
import { HELD_BY_RUN } from './job-lifecycle.ts';
import type { JobRow } from './job-row.ts';
import { REMOTE_JOB_CHANNEL } from './queue-names.ts';

const ACTIVE = new Set(['submitting', 'running']);

/**
 * `POST /jobs/{id}/refresh`: re-polls the provider of a job it holds and mirrors the provider's status
 * and progress onto the job. The job's follower still finishes it (downloads, billing, webhook), and is
 * handed what the refresh saw, so a job the provider has finished is finished at once; local engines
 * report as they go, so their jobs are answered as they stand. A provider that cannot be reached leaves
 * the job unchanged: the refresh answers what we know.
 */
export async function refreshFromProvider(s: Services, row: JobRow): Promise<JobRow> {
  if (!ACTIVE.has(row.status) || !row.provider_job_id) return row;
  const provider = s.providers.get(row.provider);
  const resolved = s.catalog.resolve(row.model);
  const offer = resolved?.model.offers.find((o) => o.provider === row.provider);
  if (!provider?.remote || !resolved || !offer) return row;
  try {
    const state = await provider.remote.poll(
      { model: resolved.model, offer, body: row.input, providerJobId: row.provider_job_id },
      AbortSignal.timeout(15_000),
    );
    if (!s.remoteJobs.deliver(row.id, state)) {
      await s.db.query('SELECT pg_notify($1, $2)', [REMOTE_JOB_CHANNEL, row.id]).catch(() => {});
    }
    const { rows } = await s.db.query<JobRow>(
      `UPDATE jobs SET provider_status = $2, progress = coalesce($3, progress),
              progress_message = coalesce($4, progress_message), updated_at = now()
        WHERE id = $1 AND ${HELD_BY_RUN} RETURNING *`,
      [row.id, state.providerStatus, state.progress, state.message],
    );
    return rows[0] ?? row;
  } catch (error) {
    s.log.warn('refresh could not reach the provider', {
      job_id: row.id,
      provider: row.provider,
      error: error instanceof Error ? error.message : String(error),
    });
    return row;
  }
}
