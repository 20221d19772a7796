import type { Job, JobStatus } from '../../../contract/jobs.ts';
import { instanceAliveSql } from '../../db/instance-presence.ts';
import { type Db, transaction } from '../../db/pool.ts';
import { release, settle } from '../billing/ledger.ts';
import { attributionOf, type JobRow } from './job-row.ts';
import { withPipelineCost } from './pipeline-cost.ts';

/**
 * A job's lifecycle: the one place its `status` changes. Every change is one of the moves of
 * `JOB_MOVES`, made by the function the move names, as one statement guarded by the move's `from`
 * statuses (and, for a run, its lease token), so a late or duplicate hand changes nothing:
 *
 *   queued ──claim──▶ submitting ──start──▶ running            (claim with `start`: queued ──▶ running)
 *   submitting | running ──takeOver──▶ submitting | running     (only when the run holding it is gone)
 *   queued | submitting | running ──complete | fail | cancel──▶ completed | failed | cancelled (final)
 *
 * A job is created `queued` (create-job.ts, with its hold and its queue message in one transaction).
 * Every move writes `updated_at = now()`; the trigger of migration 019 moves it past the state it
 * replaces when a transaction that began earlier commits later, so a newer state always reads newer.
 *
 * What stays with its caller, because it never changes the status: the run's progress, the provider's
 * status, id and logs (run-job.ts, run-remote-job.ts, remote-follower.ts, refresh-job.ts), the lease's
 * renewal and hand-back (job-lease.ts: a job handed back keeps its status) and a pipeline's step view.
 * Each of those is guarded by the run's token and an active status, so it cannot touch a finished job.
 */
interface Move {
  readonly from: readonly JobStatus[];
  readonly to: readonly JobStatus[];
  /** What the move writes besides the status and `updated_at`. */
  readonly writes: string;
}

const ACTIVE: readonly JobStatus[] = ['queued', 'submitting', 'running'];
/** The statuses a run holds its job in: a lease, a `run_token`, the instance running it. */
const HELD: readonly JobStatus[] = ['submitting', 'running'];

export const JOB_MOVES = {
  claim: {
    from: ['queued'],
    to: ['submitting', 'running'],
    writes:
      'a new run_token, run_instance and lease; `running` (started_at, progress 0, provider_status) unless a cached answer waits or the server stops',
  },
  takeOver: {
    from: HELD,
    to: HELD,
    writes:
      'as claim, when the run that held the job is gone (lease ran out, handed back, its instance dead); the old token fences the old run',
  },
  start: {
    from: ['submitting'],
    to: ['running'],
    writes: 'started_at, progress 0, provider_status running; only by the run holding the job',
  },
  complete: {
    from: ACTIVE,
    to: ['completed'],
    writes:
      'output, billed_units, cached, the charge (ledger settle: the hold released, the cost taken) as actual_cost_cents, held_cents 0, progress cleared, completed_at; a deterministic result into the result cache; a pipeline its cost',
  },
  fail: {
    from: ACTIVE,
    to: ['failed'],
    writes:
      'error, provider_status, the hold released (ledger release), held_cents 0, actual_cost_cents 0, completed_at; a pipeline its cost',
  },
  cancel: {
    from: ACTIVE,
    to: ['cancelled'],
    writes:
      'error `cancelled`, the hold released (ledger release), held_cents 0, actual_cost_cents 0, progress cleared, completed_at; a pipeline its cost',
  },
} as const satisfies Record<string, Move>;

export type JobMove = keyof typeof JOB_MOVES;

/** Whether any move takes a job from one status to another. */
export function canMove(from: JobStatus, to: JobStatus): boolean {
  return Object.values(JOB_MOVES).some((move: Move) => move.from.includes(from) && move.to.includes(to));
}

/** `status IN (...)` for a list of statuses of the table (never caller input). */
export function statusIn(statuses: readonly JobStatus[]): string {
  return `status IN (${statuses.map((status) => `'${status}'`).join(', ')})`;
}

/** Statuses a run holds its job in, as a guard for the writes of a run (progress, lease). */
export const HELD_BY_RUN = statusIn(HELD);

/**
 * The run holding a job is gone: its lease ran out, it handed the job back (no instance), or the
 * instance that held it died.
 */
export const RUN_GONE = `(lease_expires_at < now() OR run_instance IS NULL OR NOT ${instanceAliveSql('run_instance')})`;

export interface RunLease {
  token: string;
  row: JobRow;
  /**
   * Output files an earlier run of this job stored before it died (killed between storing and finishing):
   * no one's output, to be discarded before this run stores its own.
   */
  leftoverFiles: string[];
}

const CLAIM_SQL = `WITH run AS (
       SELECT $4::boolean AND NOT EXISTS (
         SELECT 1 FROM jobs j JOIN result_cache c ON c.cache_key = j.cache_key WHERE j.id = $1) AS starts,
         ARRAY(SELECT f.id FROM files f WHERE f.job_id = $1 AND f.origin = 'job') AS leftover_files)
     UPDATE jobs SET run_token = gen_random_uuid(), run_instance = $2,
            lease_expires_at = now() + make_interval(secs => $3), updated_at = now(),
            status = CASE WHEN run.starts THEN 'running' ELSE 'submitting' END,
            provider_status = CASE WHEN run.starts THEN 'running' ELSE provider_status END,
            started_at = CASE WHEN run.starts THEN coalesce(started_at, now()) ELSE started_at END,
            progress = CASE WHEN run.starts THEN 0 ELSE progress END,
            progress_message = CASE WHEN run.starts THEN 'Started' ELSE progress_message END
       FROM run
      WHERE id = $1 AND (${statusIn(JOB_MOVES.claim.from)}
                         OR (${statusIn(JOB_MOVES.takeOver.from)} AND (lease_expires_at IS NULL OR ${RUN_GONE})))
      RETURNING jobs.*, run.leftover_files`;

/**
 * claim / takeOver: takes the job for a new run, or answers null when it is finished or another live run
 * holds it. With `start`, a job that will run (no cached answer waits for it) is marked running in the
 * same statement: one round trip from the queue message to `running`. Otherwise (a server that is
 * stopping, or a cache hit) it is `submitting` until the run decides.
 */
export async function claimJob(
  db: Db,
  jobId: string,
  instance: number | null,
  leaseSeconds: number,
  { start }: { start: boolean },
): Promise<RunLease | null> {
  // Named, so each connection plans it once and keeps the plan: planning took about as long as running it.
  const { rows } = await db.query<JobRow & { leftover_files: string[] }>({
    name: 'claim-job',
    text: CLAIM_SQL,
    values: [jobId, instance, leaseSeconds, start],
  });
  if (!rows[0]?.run_token) return null;
  const { leftover_files: leftoverFiles, ...row } = rows[0];
  return { token: rows[0].run_token, row, leftoverFiles };
}

/** start: the run holding a `submitting` job (no cached answer after all) starts it. False when it lost the job. */
export async function startRun(db: Db, jobId: string, token: string): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE jobs SET status = 'running', provider_status = 'running', started_at = coalesce(started_at, now()),
            progress = 0, progress_message = 'Started', updated_at = now()
      WHERE id = $1 AND ${statusIn(JOB_MOVES.start.from)} AND run_token = $2`,
    [jobId, token],
  );
  return rowCount === 1;
}

type Tx = Parameters<Parameters<typeof transaction>[1]>[0];

/**
 * complete / fail / cancel: moves a job to a terminal state exactly once. The row is locked, and a job
 * the move cannot start from (finished, failed or cancelled meanwhile) is left alone; so is a job whose
 * `run_token` is no longer the run's (taken over after its lease ran out). The ledger and the pipeline's
 * cost are written in the same transaction. Returns the new row, or null when another hand got there first.
 */
async function finish(
  db: Db,
  move: 'complete' | 'fail' | 'cancel',
  jobId: string,
  apply: (row: JobRow, tx: Tx) => Promise<JobRow>,
  runToken?: string,
): Promise<JobRow | null> {
  return transaction(db, async (tx) => {
    // Text and values, not a named statement: job-update-order.test.ts slips a write in ahead of this lock.
    const { rows } = await tx.query<JobRow>('SELECT * FROM jobs WHERE id = $1 FOR UPDATE', [jobId]);
    const row = rows[0];
    const from: readonly JobStatus[] = JOB_MOVES[move].from;
    if (!row || !from.includes(row.status)) return null;
    if (runToken !== undefined && row.run_token !== runToken) return null;
    // A pipeline's cost (the sum of its steps' charges) is written with its terminal state: never seen without.
    return withPipelineCost(tx, await apply(row, tx));
  });
}

/** What happens after a job reached a terminal state (metrics, log, webhook); wired at start-up. */
export type TerminalHook = (row: JobRow) => Promise<void>;

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
    'complete',
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
    'fail',
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

/** A cancel on request (the API, or a cancelled pipeline's steps): no run token, any active job. */
export async function cancelActiveJob(db: Db, jobId: string) {
  return finish(db, 'cancel', jobId, async (row, tx) => {
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
