import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { LedgerListQuery } from '../src/contract/billing.ts';
import { startEmbeddedPostgres } from '../src/server/db/embedded.ts';
import { migrate } from '../src/server/db/migrate.ts';
import { ledgerListIndexes } from '../src/server/db/migrations/017-ledger-list-indexes.ts';
import { createPool, type Queryable } from '../src/server/db/pool.ts';
import { ledgerPage } from '../src/server/domain/billing/ledger-page.ts';
import { createLogger } from '../src/server/logger.ts';

/*
 * GET /v2/billing/ledger's database work for the lookups that are not a range of dates (one job's entries,
 * one kind of entry), and the refund command's look at a job's charge, in a team whose ledger holds
 * 900,000 entries (300,000 jobs, each held, released and settled; a few refunds, grants and adjustments
 * among them), on an embedded PostgreSQL of its own. Beside each, in the same run: the same statement
 * without migration 017's indexes. `npx tsx bench/ledger.ts`.
 */

const JOBS = 300_000;
const TEAM = '00000000-0000-4000-8000-0000000b1000';
/** The ledger as an owner reads it (every folder seen: the page's SQL carries no folder rule to weigh). */
const OWNER = { teamId: TEAM, personId: null, role: 'owner' as const };
/** A job in the middle of the ledger, with no refund; and one with a refund. */
const PLAIN_JOB = `job_l_${JOBS / 2}`;
const REFUNDED_JOB = `job_l_${JOBS / 3}`;

const CASES: Array<{ name: string; query: Record<string, string> }> = [
  { name: 'no filter', query: {} },
  { name: "one job's entries", query: { job: PLAIN_JOB } },
  { name: "one job's refunds, none", query: { job: PLAIN_JOB, kind: 'refund' } },
  { name: "one job's refunds, one", query: { job: REFUNDED_JOB, kind: 'refund' } },
  { name: 'refunds (20)', query: { kind: 'refund' } },
  { name: 'grants (12)', query: { kind: 'grant' } },
  { name: 'adjustments (6)', query: { kind: 'adjustment' } },
  { name: 'settles (a third)', query: { kind: 'settle' } },
];

/** What the refund command reads of a job's charge (corrections.ts refundJob). */
const REFUND_LOOKUP = `SELECT coalesce(-sum(delta_cents) FILTER (WHERE kind = 'settle'), 0) AS charged,
                              coalesce(sum(delta_cents) FILTER (WHERE kind = 'refund'), 0) AS refunded
                         FROM credit_ledger WHERE job_id = $1 AND team_id = $2`;

const INDEXES_017 = [...ledgerListIndexes.sql.matchAll(/CREATE INDEX (\w+)/g)].map((m) => m[1]!);

/** 300,000 jobs' hold, release and settle, ten seconds apart, with refunds, grants and adjustments among them. */
async function seedLedger(db: Queryable): Promise<void> {
  await db.query(`INSERT INTO teams (id, name, slug) VALUES ($1::uuid, 'Bench', $1::text)`, [TEAM]);
  // The analytics rollup triggers are not what is measured: off for the seeding (this session only).
  await db.query(`SET session_replication_role = replica`);
  await db.query(
    `INSERT INTO credit_ledger (team_id, delta_cents, balance_after_cents, kind, source, tool, model, job_id,
                                job_status, created_at)
     SELECT $1, d.delta, 1000000, d.kind, 'api', 'image', 'model-' || (i % 30), 'job_l_' || i, d.status,
            now() - ($2 - i) * interval '10 seconds' + d.offset_ms * interval '1 millisecond'
       FROM generate_series(1, $2::int) i,
            (VALUES (-10, 'hold', 'queued', 0), (10, 'release', 'completed', 5000),
                    (-8, 'settle', 'completed', 5001)) d(delta, kind, status, offset_ms)`,
    [TEAM, JOBS],
  );
  await db.query(
    `INSERT INTO credit_ledger (team_id, delta_cents, balance_after_cents, kind, source, tool, model, job_id,
                                job_status, reason, created_at)
     SELECT $1, 8, 1000000, 'refund', 'api', 'image', 'model-1', 'job_l_' || (i * $2 / 60), 'completed',
            'bench refund', now() - ($2 - i * $2 / 60) * interval '10 seconds' + interval '1 hour'
       FROM generate_series(20, 39) i`,
    [TEAM, JOBS],
  );
  await db.query(
    `INSERT INTO credit_ledger (team_id, delta_cents, balance_after_cents, kind, source, reason, created_at)
     SELECT $1, CASE WHEN i <= 12 THEN 5000 ELSE -100 END, 1000000, CASE WHEN i <= 12 THEN 'grant' ELSE 'adjustment' END,
            'internal', 'bench', now() - i * interval '9 days'
       FROM generate_series(1, 18) i`,
    [TEAM],
  );
  await db.query(`SET session_replication_role = origin`);
  await db.query('VACUUM ANALYZE credit_ledger');
}

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!;

async function timed(samples: number, run: () => Promise<unknown>) {
  for (let i = 0; i < 3; i++) await run();
  const ms: number[] = [];
  for (let i = 0; i < samples; i++) {
    const started = performance.now();
    await run();
    ms.push(performance.now() - started);
  }
  return { p50: percentile(ms, 0.5), p95: percentile(ms, 0.95) };
}

interface Timing {
  p50: number;
  p95: number;
  /** Pages (8 kB) the statement read, from EXPLAIN (ANALYZE, BUFFERS): its work, whatever the load. */
  pages: number;
}

export interface LedgerFigure {
  name: string;
  now: Timing;
  before: Timing;
}

/** Runs the listing with the page query captured, to read its pages with EXPLAIN afterwards. */
function capturing(client: Queryable) {
  const captured: { text: string; values: unknown[] }[] = [];
  const recorder = {
    query: (text: string, values: unknown[]) => {
      captured.push({ text, values });
      return client.query(text, values);
    },
  } as unknown as Queryable;
  return { recorder, captured };
}

async function pagesRead(client: Queryable, text: string, values: unknown[]): Promise<number> {
  const { rows } = await client.query<{ 'QUERY PLAN': Array<{ Plan: Record<string, number> }> }>(
    `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${text}`,
    values,
  );
  const plan = rows[0]!['QUERY PLAN'][0]!.Plan;
  return (plan['Shared Hit Blocks'] ?? 0) + (plan['Shared Read Blocks'] ?? 0);
}

async function measureCase(
  client: Queryable,
  samples: number,
  query: Record<string, string>,
): Promise<Timing> {
  const parsed = LedgerListQuery.parse(query);
  const { recorder, captured } = capturing(client);
  await ledgerPage(recorder, OWNER, parsed);
  const times = await timed(samples, () => ledgerPage(client, OWNER, parsed));
  return { ...times, pages: await pagesRead(client, captured[0]!.text, captured[0]!.values) };
}

async function measureStatement(client: Queryable, samples: number, values: unknown[]): Promise<Timing> {
  const times = await timed(samples, () => client.query(REFUND_LOOKUP, values));
  return { ...times, pages: await pagesRead(client, REFUND_LOOKUP, values) };
}

async function withoutIndexes<T>(client: Queryable, work: () => Promise<T>): Promise<T> {
  await client.query('BEGIN');
  try {
    for (const index of INDEXES_017) await client.query(`DROP INDEX ${index}`);
    return await work();
  } finally {
    await client.query('ROLLBACK');
  }
}

export interface LedgerWrites {
  /** Median ms of one job's three ledger rows (hold, release, settle), with and without 017's indexes. */
  withMs: number;
  withoutMs: number;
  rounds: number;
}

/**
 * What 017's indexes cost a write: two copies of the ledger (LIKE copies the indexes, not the analytics
 * triggers, so this is the indexes' cost alone, against a bare table), one without 017's indexes, and
 * one job's three rows written to each in turn, each row committed on its own as the server does.
 */
async function measureWrites(db: Queryable, rounds: number, jobsPerRound: number): Promise<LedgerWrites> {
  for (const table of ['bench_ledger_with', 'bench_ledger_without']) {
    await db.query(`CREATE TABLE ${table} (LIKE credit_ledger INCLUDING ALL)`);
    await db.query(`INSERT INTO ${table} SELECT * FROM credit_ledger`);
  }
  const { rows } = await db.query<{ indexname: string; indexdef: string }>(
    `SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'bench_ledger_without'`,
  );
  for (const row of rows) {
    if (row.indexdef.includes('(job_id)') || row.indexdef.includes('(team_id, kind,')) {
      await db.query(`DROP INDEX ${row.indexname}`);
    }
  }
  await db.query('VACUUM ANALYZE bench_ledger_with, bench_ledger_without');
  const write = async (table: string, n: number) => {
    for (const [delta, kind] of [
      [-10, 'hold'],
      [10, 'release'],
      [-8, 'settle'],
    ] as const) {
      await db.query(
        `INSERT INTO ${table} (team_id, delta_cents, balance_after_cents, kind, source, tool, model, job_id, job_status)
         VALUES ($1, $2, 1000000, $3, 'api', 'image', 'model-1', $4, 'completed')`,
        [TEAM, delta, kind, `job_w_${table}_${n}`],
      );
    }
  };
  const withMs: number[] = [];
  const withoutMs: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const order =
      round % 2 === 0
        ? ['bench_ledger_with', 'bench_ledger_without']
        : ['bench_ledger_without', 'bench_ledger_with'];
    for (const table of order) {
      const started = performance.now();
      for (let i = 0; i < jobsPerRound; i++) await write(table, round * jobsPerRound + i);
      (table === 'bench_ledger_with' ? withMs : withoutMs).push((performance.now() - started) / jobsPerRound);
    }
  }
  return { withMs: percentile(withMs, 0.5), withoutMs: percentile(withoutMs, 0.5), rounds };
}

export interface LedgerFigures {
  figures: LedgerFigure[];
  writes: LedgerWrites;
  samples: number;
}

export async function benchLedger(samples = 30): Promise<LedgerFigures> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mc-bench-ledger-'));
  const database = await startEmbeddedPostgres(dataDir, createLogger('warn'));
  const db = createPool(database.url, 2);
  try {
    await migrate(db);
    const client = await db.connect();
    try {
      await seedLedger(client);
      const figures: LedgerFigure[] = [];
      for (const { name, query } of CASES) {
        figures.push({
          name,
          now: await measureCase(client, samples, query),
          before: await withoutIndexes(client, () => measureCase(client, samples, query)),
        });
      }
      const refundValues = [PLAIN_JOB, TEAM];
      figures.push({
        name: "refund command's look at a charge",
        now: await measureStatement(client, samples, refundValues),
        before: await withoutIndexes(client, () => measureStatement(client, samples, refundValues)),
      });
      const writes = await measureWrites(client, 6, 200);
      return { figures, writes, samples };
    } finally {
      client.release();
    }
  } finally {
    await db.end();
    await database.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

export function formatLedger({ figures, writes, samples }: LedgerFigures): string {
  const ms = (t: Timing) => `${t.p50.toFixed(2)}/${t.p95.toFixed(2)} (${t.pages})`;
  return [
    `ledger lookups at ${(JOBS * 3).toLocaleString('en-US')} entries, p50/p95 ms of ${samples} (pages read)`,
    `  ${'lookup'.padEnd(36)} ${'now'.padStart(22)} ${'without 017'.padStart(24)}`,
    ...figures.map((f) => `  ${f.name.padEnd(36)} ${ms(f.now).padStart(22)} ${ms(f.before).padStart(24)}`),
    `one job's three ledger rows, median of ${writes.rounds} alternating rounds: ${writes.withMs.toFixed(2)} ms with 017's indexes, ${writes.withoutMs.toFixed(2)} ms without (×${(writes.withMs / writes.withoutMs).toFixed(2)}; the indexes alone, without the analytics triggers)`,
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await benchLedger(Number(process.env.BENCH_SAMPLES ?? 30));
  process.stdout.write(`${formatLedger(result)}\n`);
}
