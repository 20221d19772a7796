import { randomBytes, randomUUID } from 'node:crypto';
import type { Queryable } from '../../db/pool.ts';

/** One ledger row as a test writes it: exact posting time, every attribution column. */
export interface LedgerRow {
  at: string;
  kind: 'grant' | 'hold' | 'settle' | 'release' | 'refund' | 'adjustment';
  delta: number;
  tool?: string | null;
  model?: string | null;
  folderId?: string | null;
  apiKeyId?: string | null;
  personId?: string | null;
  source?: 'app' | 'api' | 'mcp' | 'internal' | null;
  jobId?: string | null;
  jobStatus?: string | null;
}

export async function insertLedgerRows(db: Queryable, teamId: string, rows: LedgerRow[]): Promise<void> {
  for (const r of rows) {
    await db.query(
      `INSERT INTO credit_ledger (team_id, delta_cents, balance_after_cents, kind, person_id, api_key_id, source,
                                  tool, model, folder_id, job_id, job_status, created_at)
       VALUES ($1, $2, 0, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
      [
        teamId,
        r.delta,
        r.kind,
        r.personId ?? null,
        r.apiKeyId ?? null,
        r.source ?? null,
        r.tool ?? null,
        r.model ?? null,
        r.folderId ?? null,
        r.jobId ?? null,
        r.jobStatus ?? null,
        r.at,
      ],
    );
  }
}

/** A job row (a run) with the columns analytics reads; the rest get plain values. */
export async function insertJob(
  db: Queryable,
  teamId: string,
  job: {
    id?: string;
    at: string;
    tool?: string;
    model?: string;
    status?: string;
    source?: string;
    folderId?: string | null;
    apiKeyId?: string | null;
    personId?: string | null;
    provider?: string;
    /** Timeline moments (JobTimeline) and the error, for performance analytics. */
    startedAt?: string | null;
    submittedAt?: string | null;
    providerStartedAt?: string | null;
    providerFinishedAt?: string | null;
    completedAt?: string | null;
    errorCode?: string | null;
  },
): Promise<string> {
  const id = job.id ?? `job_${randomBytes(16).toString('hex')}`;
  // Timeline columns only when given: the migration tests insert into a database migrated only as far as
  // the migration they test, which has none of them.
  const timeline = Object.entries({
    started_at: job.startedAt,
    submitted_at: job.submittedAt,
    provider_started_at: job.providerStartedAt,
    provider_finished_at: job.providerFinishedAt,
    completed_at: job.completedAt,
    error: job.errorCode ? { code: job.errorCode, message: 'failed' } : undefined,
  }).filter(([, value]) => value !== undefined && value !== null);
  const extraColumns = timeline.map(([column]) => `, ${column}`).join('');
  const extraValues = timeline.map((_, i) => `, $${12 + i}`).join('');
  await db.query(
    `INSERT INTO jobs (id, team_id, api_key_id, person_id, source, tool, model, status, input, estimated_duration_ms,
                       estimated_cost_cents, pricing_id, billing, provider, provider_model, folder_id, created_at,
                       updated_at${extraColumns})
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, '{}', 1000, 10, 'local:x', 'per_image', $11, 'local:x', $9, $10, $10${extraValues})`,
    [
      id,
      teamId,
      job.apiKeyId ?? null,
      job.personId ?? null,
      job.source ?? 'api',
      job.tool ?? 'image',
      job.model ?? 'local-sketch',
      job.status ?? 'completed',
      job.folderId ?? null,
      job.at,
      job.provider ?? 'local',
      ...timeline.map(([, value]) => value),
    ],
  );
  return id;
}

/** A new team of its own (no sign-up), so a test's rows are the only ones. */
export async function insertTeam(db: Queryable, balance = 0): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO teams (name, slug, balance_cents) VALUES ('analytics test', $1, $2) RETURNING id`,
    [`analytics-${randomUUID()}`, balance],
  );
  return rows[0]!.id;
}
