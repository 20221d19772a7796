import type { Queryable } from '../../db/pool.ts';
import type { JobRow } from './job-row.ts';

/**
 * A finished pipeline's `actual_cost_cents` is the sum of what its steps were charged (each step is a job
 * billed on its own; the pipeline itself charges nothing, so the ledger, and analytics with it, count
 * each charge once). Its steps are the team's jobs under the keys `pipeline:<pipeline id>:<step id>`.
 * Other jobs, and pipelines still running, come back unchanged.
 */
export async function withPipelineCost<T extends JobRow | null>(db: Queryable, row: T): Promise<T> {
  if (row?.tool !== 'pipeline' || !['completed', 'failed', 'cancelled'].includes(row.status)) {
    return row;
  }
  const { rows } = await db.query<JobRow>(
    `UPDATE jobs p SET actual_cost_cents = (
        SELECT coalesce(sum(j.actual_cost_cents), 0) FROM idempotency_keys k JOIN jobs j ON j.id = k.job_id
         WHERE k.team_id = p.team_id AND k.key LIKE 'pipeline:%' AND split_part(k.key, ':', 2) = p.id
           AND j.team_id = p.team_id),
            -- A feed that read the terminal row before this write reads it again.
            updated_at = now()
      WHERE p.id = $1 RETURNING *`,
    [row.id],
  );
  return (rows[0] as T | undefined) ?? row;
}
