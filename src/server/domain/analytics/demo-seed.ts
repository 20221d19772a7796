import { createHash } from 'node:crypto';
import { type Db, transaction } from '../../db/pool.ts';

export const DEMO_EMAIL = 'demo@example.com';
export const DEMO_TEAM_SLUG = 'demo-studio';

export interface DemoSeedOptions {
  /** Completed jobs to settle (each one charge); failed and cancelled jobs come on top. Default 220,000. */
  charges?: number;
  /** The team's slug: one demo team per slug, replaced on every run. */
  slug?: string;
  /** The owner's email (sign in as them through the dev mailbox). */
  email?: string;
  /** The end of the history (default now); it spans the 13 months before. */
  now?: Date;
}

export interface DemoSeedResult {
  teamId: string;
  email: string;
  charges: number;
  jobs: number;
  ledgerRows: number;
  from: Date;
  to: Date;
}

const PEOPLE = [
  { local: '', name: 'Dana Demo', role: 'owner' },
  { local: 'ana', name: 'Ana Ortiz', role: 'manager' },
  { local: 'ben', name: 'Ben Okafor', role: 'member' },
  { local: 'chloe', name: 'Chloé Martin', role: 'member' },
  { local: 'dev', name: 'Dev Patel', role: 'member' },
] as const;

/** API keys: [suffix, name, owner index, revoked months ago or null]. */
const KEYS = [
  ['production', 'Production backend', 0, null],
  ['batch', 'Nightly batch', 1, null],
  ['staging', 'Staging', 2, null],
  ['mcp', 'Claude desktop (MCP)', 3, null],
  ['legacy', 'Old website', 0, 6],
] as const;

const FOLDERS = ['Spring campaign', 'Product shots', 'Podcast', 'Social clips', 'Launch video'];

/**
 * Models with their price in cents per job and their share of the runs. flux-schnell's price drops from
 * 3 to 2 cents 150 days before the end (the price change of the demo).
 */
const MODELS: Array<[tool: string, model: string, cents: number, weight: number]> = [
  ['image', 'flux-schnell', 3, 30],
  ['image', 'flux-dev', 5, 10],
  ['image', 'local-sketch', 1, 8],
  ['image', 'local-upscale', 1, 4],
  ['video', 'kling-2.1-master', 140, 3],
  ['video', 'veo-3', 300, 1],
  ['video', 'wan-2.2', 40, 3],
  ['video', 'local-motion', 4, 3],
  ['speech', 'eleven-multilingual-v2', 9, 8],
  ['speech', 'tts-1', 2, 6],
  ['speech', 'local-flite', 1, 3],
  ['music', 'eleven-music', 30, 2],
  ['music', 'local-procedural-music', 2, 2],
  ['transcription', 'whisper-1', 4, 5],
  ['transcription', 'scribe-v1', 6, 2],
  ['ffmpeg', 'ffmpeg', 1, 4],
  ['render', 'local-render', 3, 3],
];

function secretHash(text: string): Buffer {
  return createHash('sha256').update(`demo-seed:${text}`).digest();
}

/**
 * A realistic 13-month history for a demo team, written with set-based SQL (generate_series) in one
 * transaction: several people, keys (one revoked half-way), folders, models and sources; completed,
 * failed and cancelled jobs with their holds, releases and settlements; a price change; a quiet month
 * (7 months back) and a busy one (3 months back); monthly top-ups and a few refunds. Running it again
 * replaces the team's history (same slug), so it is idempotent per team. Deterministic for a given `now`.
 */
export async function seedDemo(db: Db, options: DemoSeedOptions = {}): Promise<DemoSeedResult> {
  const charges = options.charges ?? 220_000;
  const slug = options.slug ?? DEMO_TEAM_SLUG;
  const email = (options.email ?? DEMO_EMAIL).toLowerCase();
  const to = options.now ?? new Date();
  const from = new Date(to);
  from.setUTCMonth(from.getUTCMonth() - 13);
  const [local, domain] = email.split('@') as [string, string];

  const result = await transaction(db, async (tx) => {
    await tx.query('SELECT setseed(0.42)');
    // Replace an earlier run's team (its jobs, ledger, keys and folders go with it).
    await tx.query('DELETE FROM teams WHERE slug = $1', [slug]);
    const team = await tx.query<{ id: string }>(
      `INSERT INTO teams (name, slug, balance_cents) VALUES ('Demo Studio', $1, 0) RETURNING id`,
      [slug],
    );
    const teamId = team.rows[0]!.id;

    const personIds: string[] = [];
    for (const person of PEOPLE) {
      const address = person.local ? `${local}+${person.local}@${domain}` : email;
      const { rows } = await tx.query<{ id: string }>(
        `INSERT INTO persons (email, display_name) VALUES ($1, $2)
         ON CONFLICT (email) DO UPDATE SET email = EXCLUDED.email RETURNING id`,
        [address, person.name],
      );
      personIds.push(rows[0]!.id);
      await tx.query(`INSERT INTO memberships (team_id, person_id, role) VALUES ($1, $2, $3)`, [
        teamId,
        rows[0]!.id,
        person.role,
      ]);
    }
    const keyIds: string[] = [];
    for (const [suffix, name, owner, revokedMonthsAgo] of KEYS) {
      const id = `key_demo_${slug.replace(/[^A-Za-z0-9]/g, '')}_${suffix}`;
      keyIds.push(id);
      await tx.query(
        `INSERT INTO api_keys (id, team_id, owner_person_id, name, secret_hash, start, last4, created_at, revoked_at)
         VALUES ($1, $2, $3, $4, $5, 'mcsk_demo', $6, $7, $8)`,
        [
          id,
          teamId,
          personIds[owner],
          name,
          secretHash(`${teamId}:${suffix}`),
          suffix.slice(0, 4).padEnd(4, '0'),
          from,
          revokedMonthsAgo === null ? null : new Date(to.getTime() - revokedMonthsAgo * 30 * 86_400_000),
        ],
      );
    }
    const folderIds: string[] = [];
    for (const [i, name] of FOLDERS.entries()) {
      const { rows } = await tx.query<{ id: string }>(
        `INSERT INTO workspaces (team_id, name, slug, created_by, created_at) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
        [teamId, name, name.toLowerCase().replace(/\W+/g, '-'), personIds[i % personIds.length], from],
      );
      folderIds.push(rows[0]!.id);
    }

    // Jobs: a count per day (weekdays busier, a quiet and a busy month, some noise), times in working
    // hours, attributes drawn with weights. 8% of jobs fail or are cancelled, so completed ≈ `charges`.
    const total = Math.round(charges / 0.92);
    await tx.query(
      `CREATE TEMP TABLE demo_models ON COMMIT DROP AS
         SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::int[]) AS m(tool, model, cents, weight)`,
      [MODELS.map((m) => m[0]), MODELS.map((m) => m[1]), MODELS.map((m) => m[2]), MODELS.map((m) => m[3])],
    );
    await tx.query(
      `CREATE TEMP TABLE demo_model_ranges ON COMMIT DROP AS
         SELECT tool, model, cents,
                (sum(weight) OVER (ORDER BY model) - weight)::float / sum(weight) OVER () AS lo,
                sum(weight) OVER (ORDER BY model)::float / sum(weight) OVER () AS hi
           FROM demo_models`,
    );
    await tx.query(
      `CREATE TEMP TABLE demo_jobs ON COMMIT DROP AS
       WITH days AS (
         SELECT d,
                CASE (extract(year FROM age(date_trunc('month', $3::timestamptz), date_trunc('month', d))) * 12
                      + extract(month FROM age(date_trunc('month', $3::timestamptz), date_trunc('month', d))))::int
                  WHEN 7 THEN 0.25 WHEN 3 THEN 2.6 ELSE 1 END
                * CASE WHEN extract(isodow FROM d) >= 6 THEN 0.4 ELSE 1 END
                * (0.85 + 0.3 * random())
                * (1 + extract(epoch FROM d - $2::timestamptz) / extract(epoch FROM $3::timestamptz - $2::timestamptz) * 0.8) AS w
           FROM generate_series(date_trunc('day', $2::timestamptz), $3::timestamptz - interval '1 day', interval '1 day') d
       ), counts AS (
         SELECT d, round($1::int * w / sum(w) OVER ())::int AS n FROM days
       ), drawn AS (
         SELECT d + interval '7 hours' + (random() * 12 + random() * 3) * interval '1 hour'
                  + random() * interval '1 hour' AS at,
                random() AS r_model, random() AS r_status, random() AS r_source, random() AS r_who,
                random() AS r_folder, random() AS r_units, random() AS r_run
           FROM counts, generate_series(1, n)
       )
       -- The slug in the id: job ids are global, and two demo teams (other slugs) live side by side.
       SELECT 'job_demo_' || $4::text || '_' || lpad(to_hex((row_number() OVER (ORDER BY at))::int), 10, '0') AS id,
              least(at, $3::timestamptz - interval '1 second') AS at, m.tool, m.model,
              -- The price change: flux-schnell costs 2 instead of 3 from 150 days before the end.
              CASE WHEN m.model = 'flux-schnell' AND at >= $3::timestamptz - interval '150 days' THEN 2 ELSE m.cents END
                * (1 + floor(r_units * r_units * 4))::int AS cents,
              CASE WHEN r_status < 0.92 THEN 'completed' WHEN r_status < 0.97 THEN 'failed' ELSE 'cancelled' END AS status,
              CASE WHEN r_source < 0.55 THEN 'api' WHEN r_source < 0.88 THEN 'app' WHEN r_source < 0.97 THEN 'mcp'
                   ELSE 'internal' END AS source,
              r_who, r_folder, r_run
         FROM drawn JOIN demo_model_ranges m ON r_model >= m.lo AND r_model < m.hi`,
      [total, from, to, slug.replace(/[^A-Za-z0-9]/g, '')],
    );
    // Who started each job: API runs through a key (the legacy key until it was revoked), console and
    // MCP runs by a person; folders for 70% of the runs.
    await tx.query(
      `CREATE TEMP TABLE demo_runs ON COMMIT DROP AS
       SELECT j.*,
              CASE WHEN j.source = 'api' THEN
                     CASE WHEN j.at < k.revoked_at AND j.r_who < 0.3 THEN ($2::text[])[5]
                          WHEN j.r_who < 0.55 THEN ($2::text[])[1]
                          WHEN j.r_who < 0.85 THEN ($2::text[])[2]
                          ELSE ($2::text[])[3] END
                   WHEN j.source = 'mcp' THEN ($2::text[])[4] END AS api_key_id,
              CASE WHEN j.source = 'internal' THEN NULL
                   ELSE ($1::uuid[])[1 + floor(j.r_who * 5)::int] END AS person_id,
              CASE WHEN j.r_folder < 0.7 THEN ($3::uuid[])[1 + floor(j.r_folder / 0.7 * 5)::int] END AS folder_id
         FROM demo_jobs j, (SELECT revoked_at FROM api_keys WHERE id = ($2::text[])[5]) k`,
      [personIds, keyIds, folderIds],
    );
    await tx.query(
      `INSERT INTO jobs (id, team_id, api_key_id, person_id, source, tool, model, status, input, estimated_duration_ms,
                         estimated_cost_cents, actual_cost_cents, pricing_id, billing, provider, provider_model,
                         folder_id, created_at, updated_at, started_at, completed_at)
       SELECT id, $1, api_key_id, person_id, source, tool, model, status, '{}', 10000, cents,
              CASE WHEN status = 'completed' THEN cents WHEN status IN ('failed', 'cancelled') THEN 0 END, 'demo:' || model, 'per_job', 'demo', 'demo:' || model,
              folder_id, at, at + interval '20 seconds', at + interval '1 second', at + interval '20 seconds'
         FROM demo_runs`,
      [teamId],
    );
    // The ledger: top-ups first of each month, then per job a hold at creation and, 20 s later, its
    // release and (completed jobs) the settlement; 0.3% of completed jobs are refunded in full a day later.
    await tx.query(
      `CREATE TEMP TABLE demo_ledger ON COMMIT DROP AS
       SELECT * FROM (
         SELECT g AS at, 0 AS ord, 'grant' AS kind, $3::bigint AS delta, NULL::text AS job_id, NULL::text AS status,
                'Monthly top-up' AS reason
           FROM generate_series(date_trunc('month', $1::timestamptz), $2::timestamptz, interval '1 month') g
         UNION ALL SELECT at, 1, 'hold', -cents, id, 'queued', NULL FROM demo_runs
         UNION ALL SELECT at + interval '20 seconds', 2, 'release', cents, id, status, NULL FROM demo_runs
         UNION ALL SELECT at + interval '20 seconds', 3, 'settle', -cents, id, status, NULL
           FROM demo_runs WHERE status = 'completed'
         UNION ALL SELECT at + interval '1 day', 4, 'refund', cents, id, status, 'Refund: unusable output'
           FROM demo_runs WHERE status = 'completed' AND r_run < 0.003 AND at + interval '1 day' < $2::timestamptz
       ) rows WHERE at < $2::timestamptz`,
      // Top-ups sized so the balance never runs dry, whatever the size of the history.
      [from, to, Math.max(2_000_000, Math.ceil((charges * 40) / 12))],
    );
    const inserted = await tx.query(
      `INSERT INTO credit_ledger (team_id, delta_cents, balance_after_cents, kind, reason, person_id, api_key_id, source,
                                  tool, model, folder_id, job_id, job_status, created_at)
       SELECT $1, l.delta, sum(l.delta) OVER (ORDER BY l.at, l.ord, l.job_id), l.kind, l.reason, r.person_id,
              r.api_key_id, CASE WHEN l.kind = 'grant' THEN 'internal' ELSE r.source END, r.tool, r.model,
              r.folder_id, l.job_id, l.status, l.at
         FROM demo_ledger l LEFT JOIN demo_runs r ON r.id = l.job_id
        ORDER BY l.at, l.ord, l.job_id`,
      [teamId],
    );
    await tx.query(
      `UPDATE teams SET balance_cents = (SELECT coalesce(sum(delta_cents), 0) FROM credit_ledger WHERE team_id = $1)
        WHERE id = $1`,
      [teamId],
    );
    const counts = await tx.query<{ charges: number; jobs: number }>(
      `SELECT (SELECT count(*) FROM credit_ledger WHERE team_id = $1 AND kind = 'settle' AND delta_cents < 0) AS charges,
              (SELECT count(*) FROM jobs WHERE team_id = $1) AS jobs`,
      [teamId],
    );
    return {
      teamId,
      email,
      charges: Number(counts.rows[0]!.charges),
      jobs: Number(counts.rows[0]!.jobs),
      ledgerRows: inserted.rowCount ?? 0,
      from,
      to,
    };
  });
  // Fresh statistics and visibility map, so the analytics queries (ledger and rollups) plan well and scan
  // the index only.
  await db.query('VACUUM (ANALYZE) credit_ledger, jobs, analytics_charge_hours, analytics_run_hours');
  return result;
}
