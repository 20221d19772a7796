import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ANALYTICS_DIMENSIONS,
  AnalyticsBreakdownQuery,
  AnalyticsSummaryQuery,
  AnalyticsTimeseriesQuery,
} from '../../../contract/analytics.ts';
import { analyticsRollup } from '../../db/migrations/008-analytics-rollup.ts';
import { migrations } from '../../db/migrations/index.ts';
import { createPool, type Queryable, transaction } from '../../db/pool.ts';
import { createTestApp, createTestDatabase, type TestApp } from '../../testing/test-app.ts';
import { insertJob, insertLedgerRows, insertTeam, type LedgerRow } from './analytics-test-support.ts';
import { analyticsBreakdown } from './breakdown.ts';
import { seedDemo } from './demo-seed.ts';
import type { Viewer } from './filters.ts';
import { rollupSetFor, splitByHours } from './rollup.ts';
import { analyticsSummary } from './summary.ts';
import { analyticsTimeseries } from './timeseries.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({}, { work: false });
});
afterAll(() => t.close());

/** mulberry32: a seeded generator, so a failure can be replayed. */
function generator(seed: number) {
  return (n: number) => {
    seed = (seed + 0x6d2b79f5) | 0;
    let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) % n;
  };
}
type Rand = ReturnType<typeof generator>;
const pick = <T>(rand: Rand, list: readonly T[]): T => list[rand(list.length)]!;
const at = (iso: string) => new Date(iso);
const full = (teamId: string): Viewer => ({
  teamId,
  scope: 'full',
  personId: null,
  role: 'owner',
  apiKeyIds: [],
});

describe('splitByHours', () => {
  it('reads every hour from the rollup when the bounds and bucket edges are on the hour', () => {
    const period = { from: at('2025-06-01T00:00:00Z'), to: at('2025-06-03T00:00:00Z') };
    expect(splitByHours(period, [period.from, at('2025-06-02T00:00:00Z'), period.to])).toEqual({
      hours: { ...period, skip: [] },
      raw: [],
    });
  });

  it('reads the hours a bound or a half-hour day edge cuts from the ledger (Asia/Kolkata days)', () => {
    const period = { from: at('2025-06-01T10:20:00Z'), to: at('2025-06-03T18:30:00Z') };
    const edges = [period.from, at('2025-06-01T18:30:00Z'), at('2025-06-02T18:30:00Z'), period.to];
    expect(splitByHours(period, edges)).toEqual({
      hours: {
        from: at('2025-06-01T11:00:00Z'),
        to: at('2025-06-03T18:00:00Z'),
        skip: [at('2025-06-01T18:00:00Z'), at('2025-06-02T18:00:00Z')],
      },
      raw: [
        { from: period.from, to: at('2025-06-01T11:00:00Z') },
        { from: at('2025-06-01T18:00:00Z'), to: at('2025-06-01T19:00:00Z') },
        { from: at('2025-06-02T18:00:00Z'), to: at('2025-06-02T19:00:00Z') },
        { from: at('2025-06-03T18:00:00Z'), to: period.to },
      ],
    });
  });

  it('reads a period shorter than its hours from the ledger alone', () => {
    const period = { from: at('2025-06-01T10:20:00Z'), to: at('2025-06-01T11:45:00Z') };
    expect(splitByHours(period, [])).toEqual({ hours: null, raw: [period] });
  });
});

describe('rollupSetFor', () => {
  it('picks the smallest kept set that holds every filtered and grouped column, else none', () => {
    expect(rollupSetFor({}, { kind: 'none' })).toBe(0);
    expect(rollupSetFor({ status: ['failed'] }, { kind: 'dimension', dimension: 'status' })).toBe(64);
    expect(rollupSetFor({ capability: ['image'] }, { kind: 'dimension', dimension: 'model' })).toBe(3);
    expect(rollupSetFor({ member: 'none' }, { kind: 'dimension', dimension: 'creator' })).toBe(24);
    expect(rollupSetFor({ member: 'none' }, { kind: 'dimension', dimension: 'member' })).toBe(16);
    expect(rollupSetFor({ api_key: ['key_a'] }, { kind: 'none' })).toBe(8);
    expect(rollupSetFor({ model: ['a'] }, { kind: 'dimension', dimension: 'folder' })).toBeNull();
    expect(rollupSetFor({ source: ['api'], status: ['failed'] }, { kind: 'none' })).toBeNull();
  });
});

const GROUPING_SETS =
  'GROUPING SETS ((), (tool, model), (folder_id), (api_key_id), (person_id), (api_key_id, person_id), (src), (st))';
const DIMS_OF_SET = `(1 - GROUPING(tool)) + 2 * (1 - GROUPING(model)) + 4 * (1 - GROUPING(folder_id))
  + 8 * (1 - GROUPING(api_key_id)) + 16 * (1 - GROUPING(person_id)) + 32 * (1 - GROUPING(src)) + 64 * (1 - GROUPING(st))`;
const KEY_COLUMNS = `hour, dims, tool, model, folder_id::text AS folder_id, api_key_id, person_id::text AS person_id`;
const HOUR_OF = `date_bin('1 hour', created_at, timestamptz '2000-01-01 00:00:00+00')`;

const sorted = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).sort();

/**
 * The team's rollup rows equal the same sums computed afresh from the ledger and jobs (GROUPING SETS,
 * the runs definition on the idempotency keys): no drift, and no emptied rows left behind.
 */
async function expectRollupsMatchRebuild(db: Queryable, teamId: string) {
  const charges = await db.query(
    `SELECT ${KEY_COLUMNS}, source, status, entries::int, spend_cents::int, charges::int, jobs::int,
            unsuccessful_cents::int, unattributed_cents::int
       FROM analytics_charge_hours WHERE team_id = $1`,
    [teamId],
  );
  const chargesRebuilt = await db.query(
    `SELECT hour, ${DIMS_OF_SET} AS dims, tool, model, folder_id::text AS folder_id, api_key_id,
            person_id::text AS person_id, src AS source, st AS status, count(*)::int AS entries,
            (-sum(delta_cents))::int AS spend_cents, (count(*) FILTER (WHERE delta_cents < 0))::int AS charges,
            (count(*) FILTER (WHERE kind = 'settle' AND delta_cents < 0))::int AS jobs,
            coalesce(-sum(delta_cents) FILTER (WHERE job_status IN ('failed', 'cancelled')), 0)::int AS unsuccessful_cents,
            coalesce(-sum(delta_cents) FILTER (WHERE job_id IS NULL AND api_key_id IS NULL AND person_id IS NULL), 0)::int
              AS unattributed_cents
       FROM (SELECT l.*, ${HOUR_OF} AS hour, coalesce(source, 'unknown') AS src, coalesce(job_status, 'unknown') AS st
               FROM credit_ledger l WHERE team_id = $1 AND kind IN ('settle', 'refund', 'adjustment')) l
      GROUP BY hour, ${GROUPING_SETS}`,
    [teamId],
  );
  expect(sorted(charges.rows)).toEqual(sorted(chargesRebuilt.rows));

  const runs = await db.query(
    `SELECT ${KEY_COLUMNS}, source, status, runs::int FROM analytics_run_hours WHERE team_id = $1`,
    [teamId],
  );
  const runsRebuilt = await db.query(
    `SELECT hour, ${DIMS_OF_SET} AS dims, tool, model, folder_id::text AS folder_id, api_key_id,
            person_id::text AS person_id, src AS source, st AS status, count(*)::int AS runs
       FROM (SELECT j.*, ${HOUR_OF} AS hour, source AS src, status AS st FROM jobs j
              WHERE team_id = $1
                AND NOT EXISTS (SELECT 1 FROM idempotency_keys k
                                 WHERE k.job_id = j.id AND k.key LIKE 'pipeline:%' AND k.team_id = j.team_id
                                   AND EXISTS (SELECT 1 FROM jobs p WHERE p.id = split_part(k.key, ':', 2)
                                                  AND p.team_id = k.team_id AND p.tool = 'pipeline'))) j
      GROUP BY hour, ${GROUPING_SETS}`,
    [teamId],
  );
  expect(sorted(runs.rows)).toEqual(sorted(runsRebuilt.rows));
  return { chargeRows: charges.rows.length, runRows: runs.rows.length };
}

const TOOLS = ['image', 'video', 'speech'] as const;
const MODELS = ['model-a', 'model-b', 'model-c'] as const;
const KEYS = ['key_rollup_a', 'key_rollup_b'] as const;
const SOURCES = ['app', 'api', 'mcp', 'internal'] as const;
const JOB_STATUSES = ['queued', 'running', 'completed', 'failed', 'cancelled'] as const;
const START = Date.UTC(2025, 5, 1);

/** A posting time in the 12 days from START: often on the hour or the half hour, to the millisecond otherwise. */
function randomInstant(rand: Rand): string {
  const hour = START + rand(12 * 24) * 3_600_000;
  const within = [0, 1_800_000, 2_700_000, rand(3_600_000)][rand(4)]!;
  return new Date(hour + within).toISOString();
}

interface World {
  teamId: string;
  folders: string[];
  persons: string[];
  jobIds: string[];
}

async function makeWorld(db: Queryable, rand: Rand): Promise<World> {
  const teamId = await insertTeam(db);
  const folders: string[] = [];
  for (const name of ['f1', 'f2', 'f3']) {
    const { rows } = await db.query<{ id: string }>(
      `INSERT INTO workspaces (team_id, name, slug) VALUES ($1, $2, $2) RETURNING id::text`,
      [teamId, name],
    );
    folders.push(rows[0]!.id);
  }
  const persons = [randomUUID(), randomUUID()];
  const nullable = <T>(list: readonly T[]) => (rand(4) === 0 ? null : pick(rand, list));
  // Most jobs in one statement (the per-statement trigger), a few one at a time.
  const jobs = Array.from({ length: 240 }, (_, i) => ({
    id: `job_rollup_${teamId.slice(0, 8)}_${i}`,
    at: randomInstant(rand),
    tool: pick(rand, TOOLS),
    model: pick(rand, MODELS),
    status: pick(rand, JOB_STATUSES),
    source: pick(rand, SOURCES),
    folder_id: nullable(folders),
    api_key_id: nullable(KEYS),
    person_id: nullable(persons),
  }));
  await db.query(
    `INSERT INTO jobs (id, team_id, api_key_id, person_id, source, tool, model, status, input, estimated_duration_ms,
                       estimated_cost_cents, pricing_id, billing, provider, provider_model, folder_id, created_at, updated_at)
     SELECT j.id, $1, j.api_key_id, j.person_id, j.source, j.tool, j.model, j.status, '{}', 1000, 10, 'local:x',
            'per_image', 'local', 'local:x', j.folder_id, j.at, j.at
       FROM jsonb_to_recordset($2::jsonb) AS j(id text, api_key_id text, person_id uuid, source text, tool text,
                                               model text, status text, folder_id uuid, at timestamptz)`,
    [teamId, JSON.stringify(jobs)],
  );
  const jobIds = jobs.map((j) => j.id);
  for (let i = 0; i < 10; i++) {
    jobIds.push(
      await insertJob(db, teamId, {
        at: randomInstant(rand),
        tool: pick(rand, TOOLS),
        model: pick(rand, MODELS),
        status: pick(rand, JOB_STATUSES),
        source: pick(rand, SOURCES),
        folderId: nullable(folders),
        apiKeyId: nullable(KEYS),
        personId: nullable(persons),
      }),
    );
  }
  const kinds: LedgerRow['kind'][] = [
    'grant',
    'hold',
    'release',
    'settle',
    'settle',
    'settle',
    'refund',
    'adjustment',
  ];
  const ledger: LedgerRow[] = Array.from({ length: 500 }, () => {
    const kind = pick(rand, kinds);
    const amount = 1 + rand(500);
    const credit =
      kind === 'grant' || kind === 'release' || kind === 'refund' || (kind === 'adjustment' && rand(2) === 0);
    return {
      at: randomInstant(rand),
      kind,
      delta: credit ? amount : kind === 'settle' && rand(10) === 0 ? 0 : -amount,
      tool: rand(5) === 0 ? null : pick(rand, TOOLS),
      model: rand(5) === 0 ? null : pick(rand, MODELS),
      folderId: nullable(folders),
      apiKeyId: nullable(KEYS),
      personId: nullable(persons),
      source: nullable(SOURCES),
      jobId: rand(6) ? pick(rand, jobIds) : null,
      jobStatus: kind === 'settle' ? 'completed' : nullable(['completed', 'failed', 'cancelled']),
    };
  });
  await db.query(
    `INSERT INTO credit_ledger (team_id, delta_cents, balance_after_cents, kind, person_id, api_key_id, source, tool,
                                model, folder_id, job_id, job_status, created_at)
     SELECT $1, r.delta, 0, r.kind, r."personId", r."apiKeyId", r.source, r.tool, r.model, r."folderId", r."jobId",
            r."jobStatus", r.at
       FROM jsonb_to_recordset($2::jsonb) AS r(delta bigint, kind text, "personId" uuid, "apiKeyId" text, source text,
                                              tool text, model text, "folderId" uuid, "jobId" text, "jobStatus" text,
                                              at timestamptz)`,
    [teamId, JSON.stringify(ledger.slice(20))],
  );
  await insertLedgerRows(db, teamId, ledger.slice(0, 20));
  return { teamId, folders, persons, jobIds };
}

/** A bound in one of the forms the API takes: a date, a local date-time, an instant, an offset time. */
function randomBound(rand: Rand, day: number): string {
  const date = `2025-06-${String(day).padStart(2, '0')}`;
  const time = `${String(rand(24)).padStart(2, '0')}:${pick(rand, ['00', '30', '45', String(10 + rand(50))])}`;
  return pick(rand, [date, `${date}T${time}`, `${date}T${time}:00Z`, `${date}T${time}:00+05:45`]);
}

const ZONES = [
  'UTC',
  'Europe/Paris',
  'America/New_York',
  'Asia/Kolkata',
  'Asia/Kathmandu',
  'Australia/Adelaide',
];
const FILTERS = [
  'capability',
  'model',
  'folder',
  'api_key',
  'member',
  'creator',
  'source',
  'status',
] as const;

function randomFilters(rand: Rand, w: World, folderGone: string): Record<string, string> {
  const values: Record<(typeof FILTERS)[number], string[]> = {
    capability: [...TOOLS],
    model: [...MODELS],
    folder: [...w.folders, folderGone],
    api_key: [...KEYS],
    member: w.persons,
    creator: [...KEYS.map((k) => `api_key:${k}`), ...w.persons.map((p) => `member:${p}`)],
    source: [...SOURCES, 'unknown'],
    status: ['completed', 'failed', 'cancelled', 'running', 'unknown'],
  };
  const out: Record<string, string> = {};
  const count = pick(rand, [0, 0, 1, 1, 1, 2]);
  for (let i = 0; i < count; i++) {
    const name = pick(rand, FILTERS);
    out[name] =
      rand(4) === 0 ? 'none' : [...new Set([pick(rand, values[name]), pick(rand, values[name])])].join(',');
  }
  return out;
}

/** A random query of a random endpoint, answered once from the rollups and once from the ledger alone. */
async function compareRandomQuery(rand: Rand, w: World, folderGone: string) {
  const fromDay = 1 + rand(8);
  const query: Record<string, string> = {
    from: randomBound(rand, fromDay),
    to: randomBound(rand, fromDay + 2 + rand(4)),
    timezone: pick(rand, ZONES),
    ...randomFilters(rand, w, folderGone),
  };
  const compare = rand(3);
  if (compare === 0) query.compare = 'previous_period';
  if (compare === 1)
    Object.assign(query, { compare_from: '2025-05-30T07:30', compare_to: '2025-06-03T19:45' });
  const viewer: Viewer =
    rand(3) === 0
      ? { teamId: w.teamId, scope: 'self', personId: w.persons[0]!, role: null, apiKeyIds: [KEYS[0]] }
      : full(w.teamId);
  const kind = rand(3);
  const label = JSON.stringify({ kind, query, scope: viewer.scope });
  if (kind === 0) {
    const q = AnalyticsSummaryQuery.parse({ ...query, include_balance: 'false' });
    const [a, b] = [
      await analyticsSummary(t.db, viewer, q),
      await analyticsSummary(t.db, viewer, q, undefined, 'ledger'),
    ];
    expect(a.data, label).toEqual(b.data);
    return a.data.spend_cents;
  }
  if (kind === 1) {
    const q = AnalyticsTimeseriesQuery.parse({
      ...query,
      bucket: pick(rand, ['hour', 'day', 'day', 'week']),
    });
    const a = await analyticsTimeseries(t.db, viewer, q);
    const b = await analyticsTimeseries(t.db, viewer, q, undefined, 'ledger');
    expect(a.data, label).toEqual(b.data);
    return a.data.reduce((s, x) => s + x.spend_cents, 0);
  }
  const q = AnalyticsBreakdownQuery.parse({
    ...query,
    dimension: pick(rand, ANALYTICS_DIMENSIONS),
    limit: String(1 + rand(5)),
  });
  const [a, b] = [
    await analyticsBreakdown(t.db, viewer, q),
    await analyticsBreakdown(t.db, viewer, q, undefined, 'ledger'),
  ];
  expect(a.data, label).toEqual(b.data);
  return a.data.reduce((s, x) => s + x.spend_cents, 0);
}

describe('the rollups follow every write and answer as the ledger does', () => {
  const rand = generator(11);
  let w: World;
  let folderGone: string;

  beforeAll(async () => {
    w = await makeWorld(t.db, rand);
    folderGone = w.folders[2]!;
  });

  it('are filled by inserts, one statement of many rows or one row at a time', async () => {
    const { chargeRows, runRows } = await expectRollupsMatchRebuild(t.db, w.teamId);
    expect(chargeRows).toBeGreaterThan(100);
    expect(runRows).toBeGreaterThan(100);
  });

  it('follow status changes, refunds, a deleted folder, deleted jobs and changed ledger rows', async () => {
    const some = (n: number) => Array.from({ length: n }, () => pick(rand, w.jobIds));
    await t.db.query(`UPDATE jobs SET status = 'running' WHERE id = ANY($1)`, [some(30)]);
    for (const id of some(10)) await t.db.query(`UPDATE jobs SET status = 'completed' WHERE id = $1`, [id]);
    await t.db.query(`UPDATE jobs SET status = 'failed', updated_at = now() WHERE id = ANY($1)`, [some(20)]);
    await expectRollupsMatchRebuild(t.db, w.teamId);

    const refunds: LedgerRow[] = some(8).map((jobId) => ({
      at: randomInstant(rand),
      kind: 'refund',
      delta: 40,
      tool: 'image',
      model: 'model-a',
      jobId,
      jobStatus: 'completed',
      source: 'api',
    }));
    await insertLedgerRows(t.db, w.teamId, refunds);
    await expectRollupsMatchRebuild(t.db, w.teamId);

    // A deleted folder leaves its jobs without one (ON DELETE SET NULL); ledger rows keep the id.
    await t.db.query('DELETE FROM workspaces WHERE id = $1', [folderGone]);
    await t.db.query('DELETE FROM jobs WHERE id = ANY($1)', [some(15)]);
    await expectRollupsMatchRebuild(t.db, w.teamId);

    // The ledger is append-only in the code; a change or a delete made by hand is followed all the same.
    await t.db.query(
      `UPDATE credit_ledger SET job_status = 'failed', created_at = created_at + interval '3 hours'
        WHERE id IN (SELECT id FROM credit_ledger WHERE team_id = $1 AND kind = 'settle' ORDER BY id LIMIT 12)`,
      [w.teamId],
    );
    await t.db.query(
      `DELETE FROM credit_ledger WHERE id IN (SELECT id FROM credit_ledger WHERE team_id = $1 ORDER BY id DESC LIMIT 9)`,
      [w.teamId],
    );
    await expectRollupsMatchRebuild(t.db, w.teamId);
  });

  it('count a pipeline once: its steps are not runs while their key names a pipeline job of the team', async () => {
    const pipeline = await insertJob(t.db, w.teamId, {
      at: '2025-06-04T09:10:00Z',
      tool: 'pipeline',
      model: 'p',
    });
    // As createJob does it: claim the key, insert the job, then point the key at it.
    const step = async (key: string, when: string) => {
      await t.db.query(`INSERT INTO idempotency_keys (team_id, key, request_hash) VALUES ($1, $2, '\\x00')`, [
        w.teamId,
        key,
      ]);
      const id = await insertJob(t.db, w.teamId, { at: when, model: 'model-b' });
      await t.db.query('UPDATE idempotency_keys SET job_id = $3 WHERE team_id = $1 AND key = $2', [
        w.teamId,
        key,
        id,
      ]);
      return id;
    };
    await step(`pipeline:${pipeline}:s1`, '2025-06-04T09:10:01Z');
    await step(`pipeline:${pipeline}:s2`, '2025-06-04T09:59:59Z');
    // A key naming a job that is not a pipeline, and one naming a pipeline that does not exist yet.
    await step(`pipeline:${w.jobIds[0]}:s1`, '2025-06-04T10:00:00Z');
    const later = `job_rollup_later_${w.teamId.slice(0, 8)}`;
    await step(`pipeline:${later}:s1`, '2025-06-04T10:20:00Z');
    await expectRollupsMatchRebuild(t.db, w.teamId);
    const runsAt = async () =>
      (
        await t.db.query<{ runs: number }>(
          `SELECT coalesce(sum(runs), 0)::int AS runs FROM analytics_run_hours
            WHERE team_id = $1 AND dims = 0 AND hour = '2025-06-04T09:00:00Z'`,
          [w.teamId],
        )
      ).rows[0]!.runs;
    const before = await runsAt();

    await insertJob(t.db, w.teamId, { id: later, at: '2025-06-04T11:00:00Z', tool: 'pipeline', model: 'p' });
    await t.db.query('DELETE FROM idempotency_keys WHERE team_id = $1 AND key = $2', [
      w.teamId,
      `pipeline:${pipeline}:s1`,
    ]);
    await expectRollupsMatchRebuild(t.db, w.teamId);
    expect(await runsAt()).toBe(before + 1);

    // Without its pipeline, a step is a run of its own again.
    await t.db.query('DELETE FROM jobs WHERE id = $1', [pipeline]);
    await expectRollupsMatchRebuild(t.db, w.teamId);
    expect(await runsAt()).toBe(before + 1);
  });

  it('answer random ranges, time zones, filters, scopes and comparisons exactly as the ledger does', async () => {
    let spend = 0;
    for (let i = 0; i < 80; i++) spend += await compareRandomQuery(rand, w, folderGone);
    expect(spend).not.toBe(0);
  });
});

describe('a period is read as whole hours from the rollup and cut hours from the ledger', () => {
  it('shows what each part holds', async () => {
    const teamId = await insertTeam(t.db);
    await insertLedgerRows(t.db, teamId, [
      { at: '2025-06-02T10:30:00Z', kind: 'settle', delta: -7, jobId: 'j' },
    ]);
    // Marks the rollup's copy of the hour, so an answer tells where it read the hour from.
    await t.db.query(
      'UPDATE analytics_charge_hours SET spend_cents = spend_cents + 1000 WHERE team_id = $1',
      [teamId],
    );
    const spend = async (from: string, to: string, timezone = 'UTC') =>
      (
        await analyticsSummary(
          t.db,
          full(teamId),
          AnalyticsSummaryQuery.parse({ from, to, timezone, compare: 'none', include_balance: 'false' }),
        )
      ).data.spend_cents;
    expect(await spend('2025-06-02T10:00:00Z', '2025-06-02T11:00:00Z')).toBe(1007);
    expect(await spend('2025-06-02T10:15:00Z', '2025-06-02T11:00:00Z')).toBe(7);
    expect(await spend('2025-06-02T10:00:00Z', '2025-06-02T10:45:00Z')).toBe(7);
    // A Kolkata day (18:30 to 18:30 UTC) holds the 10:00 hour whole.
    expect(await spend('2025-06-02', '2025-06-03', 'Asia/Kolkata')).toBe(1007);
    const series = await analyticsTimeseries(
      t.db,
      full(teamId),
      AnalyticsTimeseriesQuery.parse({
        from: '2025-06-02T10:15:00Z',
        to: '2025-06-02T12:15:00Z',
        bucket: 'hour',
        timezone: 'Asia/Kathmandu',
      }),
    );
    // Kathmandu hours start at :15 UTC, so 10:15-11:15 UTC cuts the 10:00 hour: read from the ledger.
    expect(series.data.map((b) => b.spend_cents)).toEqual([7, 0]);
  });
});

describe('the demo seed replaces a team history, and its rollup with it', () => {
  it('leaves no rows of the replaced team and a rollup equal to a rebuild of the new one', async () => {
    const slug = `rollup-${randomUUID().slice(0, 8)}`;
    const now = new Date('2026-11-24T12:00:00Z');
    const first = await seedDemo(t.db, { charges: 1500, slug, now, email: `${slug}@example.com` });
    const second = await seedDemo(t.db, { charges: 1500, slug, now, email: `${slug}@example.com` });
    for (const table of ['analytics_charge_hours', 'analytics_run_hours']) {
      const { rows } = await t.db.query(`SELECT count(*)::int AS n FROM ${table} WHERE team_id = $1`, [
        first.teamId,
      ]);
      expect(rows[0]!.n, table).toBe(0);
    }
    await expectRollupsMatchRebuild(t.db, second.teamId);

    const year = { from: '2025-11-24', to: '2026-11-24', timezone: 'Asia/Kolkata' };
    const viewer: Viewer = {
      teamId: second.teamId,
      scope: 'self',
      personId: null,
      role: null,
      apiKeyIds: [],
    };
    const summary = AnalyticsSummaryQuery.parse({ ...year, include_balance: 'false' });
    const a = await analyticsSummary(t.db, viewer, summary);
    expect(a.data.spend_cents).toBeGreaterThan(0);
    expect(a.data).toEqual((await analyticsSummary(t.db, viewer, summary, undefined, 'ledger')).data);
    const months = AnalyticsTimeseriesQuery.parse({ ...year, bucket: 'month', compare: 'previous_period' });
    expect((await analyticsTimeseries(t.db, viewer, months)).data).toEqual(
      (await analyticsTimeseries(t.db, viewer, months, undefined, 'ledger')).data,
    );
    const creators = AnalyticsBreakdownQuery.parse({ ...year, dimension: 'creator' });
    expect((await analyticsBreakdown(t.db, viewer, creators)).data).toEqual(
      (await analyticsBreakdown(t.db, viewer, creators, undefined, 'ledger')).data,
    );
  });
});

describe('migration 008 on a database that already holds a history', () => {
  it('fills the rollups from the existing ledger and jobs, pipeline steps left out of the runs', async () => {
    const database = await createTestDatabase();
    const db = createPool(database.url, 2);
    try {
      const before = migrations.slice(0, migrations.indexOf(analyticsRollup));
      await transaction(db, async (tx) => {
        for (const migration of before) await tx.query(migration.sql);
      });
      const w = await makeWorld(db, generator(5));
      const pipeline = await insertJob(db, w.teamId, {
        at: '2025-06-03T08:00:00Z',
        tool: 'pipeline',
        model: 'p',
      });
      const step = await insertJob(db, w.teamId, { at: '2025-06-03T08:00:01Z' });
      await db.query(
        `INSERT INTO idempotency_keys (team_id, key, request_hash, job_id) VALUES ($1, $2, '\\x00', $3)`,
        [w.teamId, `pipeline:${pipeline}:s1`, step],
      );

      await transaction(db, async (tx) => {
        await tx.query(analyticsRollup.sql);
      });
      const { chargeRows, runRows } = await expectRollupsMatchRebuild(db, w.teamId);
      expect(chargeRows).toBeGreaterThan(100);
      expect(runRows).toBeGreaterThan(100);
      const { rows } = await db.query('SELECT id FROM jobs WHERE pipeline_step');
      expect(rows).toEqual([{ id: step }]);
    } finally {
      await db.end();
      await database.drop();
    }
  });
});
