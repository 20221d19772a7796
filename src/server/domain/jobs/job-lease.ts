import type pg from 'pg';
import { namedStatements } from '../../db/named-statements.ts';
import { type Db, transaction } from '../../db/pool.ts';
import type { Services } from '../../services.ts';
import { HELD_BY_RUN, RUN_GONE } from './job-lifecycle.ts';
import type { JobRow } from './job-row.ts';
import { RUN_JOB_QUEUE, RUN_PIPELINE_QUEUE, RUN_REMOTE_JOB_QUEUE, runQueueFor } from './queue-names.ts';

/**
 * A run holds its job through a lease: `run_token` fences what it writes, `run_instance` names the
 * server instance running it, `lease_expires_at` is renewed while it runs. The claim that takes a job
 * for a run is a move of its lifecycle (job-lifecycle.ts `claimJob`); this file keeps the lease: its
 * renewal, a run letting go, and hand-backs. None of these changes the job's status.
 */
/** Extends the run's lease; false when the run no longer holds its job (finished, cancelled or taken over). */
export async function renewLease(
  db: Db,
  jobId: string,
  token: string,
  leaseSeconds: number,
): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE jobs SET lease_expires_at = now() + make_interval(secs => $3)
      WHERE id = $1 AND run_token = $2 AND ${HELD_BY_RUN}`,
    [jobId, token, leaseSeconds],
  );
  return rowCount === 1;
}

/** A run may throw this many times before its job fails rather than waits for another try. */
export const RUN_FAILURES_MAX = 3;

/**
 * A run that threw instead of ending its job (the database lost while it wrote the result, a fault in
 * our code) counts the failure and, below RUN_FAILURES_MAX, lets go at once: its lease ends now, so the
 * queue's retry (or the orphan sweep, within seconds) runs the job again, instead of the job showing
 * `running` until the lease ran out (JOB_LEASE_SECONDS). Answers the job's failures so far, or null when
 * the run no longer holds it. At the limit the lease is kept, for the caller to fail the job with it.
 */
export async function letGoAfterThrow(
  db: Db,
  jobId: string,
  token: string,
  { count }: { count: boolean } = { count: true },
): Promise<number | null> {
  const { rows } = await db.query<{ run_failures: number }>(
    `UPDATE jobs SET run_failures = run_failures + $4::int, updated_at = now(),
            lease_expires_at = CASE WHEN run_failures + $4::int >= $3 THEN lease_expires_at ELSE now() END
      WHERE id = $1 AND run_token = $2 AND ${HELD_BY_RUN}
      RETURNING run_failures`,
    [jobId, token, RUN_FAILURES_MAX, count ? 1 : 0],
  );
  return rows[0]?.run_failures ?? null;
}

/**
 * The queue priority of a job that waited already (handed back, its run gone, its message lost): ahead
 * of new work. Each resumed job had run behind the whole queue, 24–37 s behind 9 new ones after a restart.
 */
export const RESUMED_PRIORITY = 10;

/**
 * What a job handed back says while it waits for its next run. It keeps its status: a hand-back is no
 * move of its lifecycle (job-lifecycle.ts, the next run's claim is), and a remote job handed back
 * still has its provider's job, which the next run follows rather than submits again.
 */
export const WAITING_TO_RESUME = 'Waiting to resume';

/**
 * Lets go of the jobs matched by `where` and sends each a new queue message in the same transaction, so
 * a job is never left without one; the next worker resumes it, ahead of new work. Answers the ids handed
 * back.
 */
async function requeue(s: Services, where: string, params: unknown[]): Promise<string[]> {
  return transaction(s.db, async (tx: pg.PoolClient) => {
    const { rows } = await tx.query<Pick<JobRow, 'id' | 'tool' | 'provider'>>(
      `UPDATE jobs SET run_token = NULL, run_instance = NULL, lease_expires_at = NULL, updated_at = now(),
              progress_message = '${WAITING_TO_RESUME}'
        WHERE id IN (SELECT id FROM jobs WHERE ${HELD_BY_RUN} AND ${where} FOR UPDATE SKIP LOCKED)
        RETURNING id, tool, provider`,
      params,
    );
    await sendResumed(s, tx, rows);
    return rows.map((r) => r.id);
  });
}

async function sendResumed(
  s: Services,
  tx: pg.PoolClient,
  rows: ReadonlyArray<Pick<JobRow, 'id' | 'tool' | 'provider'>>,
): Promise<void> {
  const db = namedStatements(tx);
  for (const row of rows) {
    await s.boss.send(
      runQueueFor(row.tool, row.provider),
      { jobId: row.id },
      { db, priority: RESUMED_PRIORITY },
    );
  }
}

/** A stopping server hands the runs it could not finish back to the queue at once. */
export function handBack(s: Services, runs: ReadonlyArray<{ jobId: string; token: string }>) {
  if (!runs.length) return Promise.resolve([]);
  return requeue(s, `(id, run_token) IN (SELECT * FROM unnest($1::text[], $2::uuid[]))`, [
    runs.map((r) => r.jobId),
    runs.map((r) => r.token),
  ]);
}

/**
 * A worker claims its job the moment it takes the job's queue message, so a message taken this long ago
 * whose job is still queued was taken by a process that died in between.
 */
const STRANDED_AFTER_SECONDS = 30;
const RUN_QUEUES = [RUN_JOB_QUEUE, RUN_REMOTE_JOB_QUEUE, RUN_PIPELINE_QUEUE];

/**
 * Queued jobs whose every queue message was taken and never claimed get a new message. Without this the
 * job waited for pg-boss to expire the message: JOB_LEASE_SECONDS, or hours for pipelines. A message
 * taken again later finds the job claimed or finished and does nothing. So do queued jobs whose message
 * failed its tries: a handler throws before its claim only when the claim itself failed (the database
 * away through every retry), and nothing else would ever send that job another message.
 */
async function requeueStranded(s: Services): Promise<string[]> {
  return transaction(s.db, async (tx: pg.PoolClient) => {
    const { rows } = await tx.query<Pick<JobRow, 'id' | 'tool' | 'provider'>>(
      `SELECT j.id, j.tool, j.provider FROM jobs j
        WHERE j.status = 'queued'
          AND j.id IN (SELECT m.data->>'jobId' FROM pgboss.job m
                        WHERE m.name = ANY($1)
                          AND (m.state = 'failed'
                               OR (m.state = 'active' AND m.started_on < now() - make_interval(secs => $2))))
          AND NOT EXISTS (SELECT 1 FROM pgboss.job m
                           WHERE m.name = ANY($1) AND m.data->>'jobId' = j.id
                             AND (m.state IN ('created', 'retry')
                                  OR (m.state = 'active' AND m.started_on >= now() - make_interval(secs => $2))))
        FOR UPDATE OF j SKIP LOCKED`,
      [RUN_QUEUES, STRANDED_AFTER_SECONDS],
    );
    await sendResumed(s, tx, rows);
    return rows.map((r) => r.id);
  });
}

/**
 * A job claimed this long ago by this process whose run this process no longer has, and which its
 * follower does not follow, is abandoned: the run threw while the database was away and could not let
 * go of it (job-runs.ts and remote-follower.ts list what is going on; the pause covers a run between
 * its claim and its start).
 */
const ABANDONED_AFTER_SECONDS = 5;

/**
 * Jobs whose run is gone (its instance died, its lease ran out, or it was this process's and ended
 * without letting go) go back to the queue, and so do queued jobs whose message was taken by a process
 * that died before claiming them. Without the third kind, a job whose run lost the database stayed
 * `running` until its lease ran out (JOB_LEASE_SECONDS): this process is alive, so its lock says the run is.
 */
export async function requeueOrphans(s: Services): Promise<string[]> {
  const orphaned = await requeue(s, `lease_expires_at IS NOT NULL AND ${RUN_GONE}`, []);
  const instance = s.jobRuns.instance();
  const abandoned =
    instance === null
      ? []
      : await requeue(
          s,
          `run_instance = $1 AND NOT (run_token = ANY($2::uuid[]))
           AND updated_at < now() - make_interval(secs => $3)`,
          // Jobs this process follows at their providers hold no run (remote-follower.ts): not abandoned.
          [instance, [...s.jobRuns.tokens(), ...s.remoteJobs.tokens()], ABANDONED_AFTER_SECONDS],
        );
  return [...orphaned, ...abandoned, ...(await requeueStranded(s))];
}
