import type { Job } from '../../../contract/jobs.ts';
import { type Db, transaction } from '../../db/pool.ts';
import { release, settle } from '../billing/ledger.ts';
import { attributionOf, type JobRow } from './job-row.ts';
import { withPipelineCost } from './pipeline-cost.ts';

/** What happens after a job reached a terminal state (webhooks); set by whoever wires the services. */
export type TerminalHook = (row: JobRow) => Promise<void>;

const ACTIVE = ['queued', 'submitting', 'running'];

/**
 * Moves an active job to a terminal state exactly once: the row is locked, and a job that is no longer
 * active (finished, failed or cancelled meanwhile) is left alone. A run passes its lease token: a run
 * whose job was taken over by another run (its lease ran out) changes nothing. Returns the new row, or
 * null when another hand got there first.
 */
async function finish(
  db: Db,
  jobId: string,
  apply: (row: JobRow, tx: Parameters<Parameters<typeof transaction>[1]>[0]) => Promise<JobRow>,
  runToken?: string,
): Promise<JobRow | null> {
  return transaction(db, async (tx) => {
    const { rows } = await tx.query<JobRow>('SELECT * FROM jobs WHERE id = $1 FOR UPDATE', [jobId]);
    const row = rows[0];
    if (!row || !ACTIVE.includes(row.status)) return null;
    if (runToken !== undefined && row.run_token !== runToken) return null;
    // A pipeline's cost (the sum of its steps' charges) is written with its terminal state: never seen without.
    return withPipelineCost(tx, await apply(row, tx));
  });
}

export async function completeJob(
  db: Db,
  jobId: string,
  result: {
    output: NonNullable<Job['output']>;
    billedUnits: Record<string, number>;
    actualCents: number;
    cached: boolean;
    providerStatus: string;
    /** The provider's id for the run that made the output, when the run itself did not record one. */
    providerJobId?: string | null;
  },
  runToken?: string,
): Promise<JobRow | null> {
  return finish(
    db,
    jobId,
    async (row, tx) => {
      const attribution = { ...attributionOf(row), jobStatus: 'completed' };
      const charged = await settle(tx, row.held_cents, result.cached ? 0 : result.actualCents, attribution);
      const { rows } = await tx.query<JobRow>(
        `UPDATE jobs SET status = 'completed', output = $2, billed_units = $3, actual_cost_cents = $4, cached = $5,
              provider_status = $6, provider_job_id = coalesce(provider_job_id, $7),
              progress = NULL, progress_message = NULL, held_cents = 0,
              started_at = coalesce(started_at, now()), completed_at = now(), updated_at = now()
        WHERE id = $1 RETURNING *`,
        [
          jobId,
          JSON.stringify(result.output),
          JSON.stringify(result.billedUnits),
          charged,
          result.cached,
          result.providerStatus,
          result.providerJobId ?? null,
        ],
      );
      if (row.cache_key && !result.cached) {
        await tx.query(
          `INSERT INTO result_cache (cache_key, output, billed_units, source_job_id) VALUES ($1, $2, $3, $4)
         ON CONFLICT (cache_key) DO NOTHING`,
          [row.cache_key, JSON.stringify(result.output), JSON.stringify(result.billedUnits), jobId],
        );
      }
      return rows[0]!;
    },
    runToken,
  );
}

export async function failJob(
  db: Db,
  jobId: string,
  error: { code: string; message: string },
  { providerStatus = 'failed', runToken }: { providerStatus?: string; runToken?: string } = {},
) {
  return finish(
    db,
    jobId,
    async (row, tx) => {
      await release(tx, row.held_cents, { ...attributionOf(row), jobStatus: 'failed' });
      const { rows } = await tx.query<JobRow>(
        `UPDATE jobs SET status = 'failed', error = $2, provider_status = $3, held_cents = 0, actual_cost_cents = 0,
              completed_at = now(), updated_at = now()
        WHERE id = $1 RETURNING *`,
        [jobId, JSON.stringify(error), providerStatus],
      );
      return rows[0]!;
    },
    runToken,
  );
}

export async function cancelActiveJob(db: Db, jobId: string) {
  return finish(db, jobId, async (row, tx) => {
    await release(tx, row.held_cents, { ...attributionOf(row), jobStatus: 'cancelled' });
    const { rows } = await tx.query<JobRow>(
      `UPDATE jobs SET status = 'cancelled', error = $2, provider_status = 'cancelled', held_cents = 0,
              actual_cost_cents = 0, progress = NULL, progress_message = NULL, completed_at = now(), updated_at = now()
        WHERE id = $1 RETURNING *`,
      [jobId, JSON.stringify({ code: 'cancelled', message: 'The job was cancelled on request.' })],
    );
    return rows[0]!;
  });
}
