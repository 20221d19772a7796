import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { JobListQuery } from '../src/contract/jobs.ts';
import { startEmbeddedPostgres } from '../src/server/db/embedded.ts';
import { migrate } from '../src/server/db/migrate.ts';
import { jobListIndexes } from '../src/server/db/migrations/013-job-list-indexes.ts';
import { createPool, type Db, type Queryable } from '../src/server/db/pool.ts';
import { jobPageQuery } from '../src/server/http/routes/jobs-list-query.ts';
import { createLogger } from '../src/server/logger.ts';
import { seededFolderId as folderId, seedJobs } from '../src/server/testing/seed-jobs.ts';

/*
 * GET /v2/jobs's database work (the clock read, then the page query, as the route runs them) for each
 * filter of the feed, matching none, a few or most jobs, in a team of 100 jobs and one of 100,000, on an
 * embedded PostgreSQL of its own. Beside it, in the same run: the query as it was before migration 013
 * (`= ANY` lists, without the 013 indexes), and what those indexes cost each write of a job.
 */

const SMALL = 100;
const LARGE = 100_000;
const PAGE = 51; // the console's page (50) and the row that tells whether there is a next one

export const teamIds = {
  small: '00000000-0000-4000-8000-0000000a1000',
  large: '00000000-0000-4000-8000-0000000a2000',
};
type Filters = Partial<JobListQuery>;

/** Each filter of the feed matching none, a few and most of the jobs (in the 100k team), and a few pairs. */
export function listCases(team: string): Array<{ name: string; filters: Filters }> {
  const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000).toISOString();
  return [
    { name: 'no filter', filters: {} },
    { name: 'status none', filters: { status: ['submitting'] } },
    { name: 'status few', filters: { status: ['running'] } },
    { name: 'status most', filters: { status: ['completed'] } },
    { name: 'status list, none', filters: { status: ['queued', 'submitting'] } },
    { name: 'status list, some', filters: { status: ['failed', 'cancelled'] } },
    { name: 'tool none', filters: { tool: ['transcription'] } },
    { name: 'tool few', filters: { tool: ['render'] } },
    { name: 'tool most', filters: { tool: ['image'] } },
    { name: 'model none', filters: { model: ['no-such-model'] } },
    { name: 'model few', filters: { model: ['rare-model'] } },
    { name: 'folder none', filters: { folder: [folderId(team, 5)] } },
    { name: 'folder few', filters: { folder: [folderId(team, 6)] } },
    { name: 'folder "none" (most)', filters: { folder: 'none' } },
    { name: 'key none', filters: { key: ['key_unused'] } },
    { name: 'key few', filters: { key: ['key_few'] } },
    { name: 'key "none" (half)', filters: { key: 'none' } },
    { name: 'created range, none', filters: { created_to: hoursAgo(24 * 400) } },
    { name: 'created range, 2 hours', filters: { created_from: hoursAgo(3), created_to: hoursAgo(1) } },
    { name: 'updated since, none', filters: { updated_since: hoursAgo(-1) } },
    { name: 'status + tool, none', filters: { status: ['failed'], tool: ['render'] } },
    { name: 'tool + date, few', filters: { tool: ['music'], created_from: hoursAgo(1) } },
    // Each part matches many (90%, 20%, 3%), together none: the most selective index is walked.
    {
      name: 'status+tool+model, none',
      filters: { status: ['completed'], tool: ['video'], model: ['model-1'] },
    },
  ];
}

/** The list query before migration 013: every list filter as `= ANY`. */
function pageQueryBefore(teamId: string, q: Filters, take: number) {
  const where = ['team_id = $1'];
  const values: unknown[] = [teamId];
  const add = (sql: (p: string) => string, value: unknown) => {
    values.push(value);
    where.push(sql(`$${values.length}`));
  };
  if (q.status?.length) add((p) => `status = ANY(${p})`, q.status);
  if (q.tool?.length) add((p) => `tool = ANY(${p})`, q.tool);
  if (q.model?.length) add((p) => `model = ANY(${p})`, q.model);
  if (q.folder === 'none') where.push('folder_id IS NULL');
  else if (q.folder?.length) add((p) => `folder_id = ANY(${p}::uuid[])`, q.folder);
  if (q.key === 'none') where.push('api_key_id IS NULL');
  else if (q.key?.length) add((p) => `api_key_id = ANY(${p})`, q.key);
  if (q.created_from) add((p) => `created_at >= ${p}`, q.created_from);
  if (q.created_to) add((p) => `created_at < ${p}`, q.created_to);
  if (q.updated_since) add((p) => `updated_at >= ${p}`, q.updated_since);
  return {
    text: `SELECT *, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS cursor_at
             FROM jobs WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT ${take}`,
    values,
  };
}

const INDEXES_013 = [...jobListIndexes.sql.matchAll(/CREATE INDEX (\w+)/g)].map((m) => m[1]!);

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!;

/** Times `run` `samples` times after 3 unmeasured runs: p50 and p95 in ms. */
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
  /** Pages (8 kB) the page query read, from EXPLAIN (ANALYZE, BUFFERS): its work, whatever the machine's load. */
  pages: number;
}

export interface ListFigure {
  name: string;
  small: Timing;
  large: Timing;
  /** The 100k team before migration 013 (the old query, without the indexes), same run. */
  largeBefore: Timing;
}

/** Shared pages hit or read by one run of the query. */
async function pagesRead(client: Queryable, query: { text: string; values: unknown[] }): Promise<number> {
  const { rows } = await client.query<{ 'QUERY PLAN': Array<{ Plan: Record<string, number> }> }>(
    `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${query.text}`,
    query.values,
  );
  const plan = rows[0]!['QUERY PLAN'][0]!.Plan;
  return (plan['Shared Hit Blocks'] ?? 0) + (plan['Shared Read Blocks'] ?? 0);
}

async function measure(client: Queryable, samples: number, query: { text: string; values: unknown[] }) {
  const times = await timed(samples, () => listPage(client, query));
  return { ...times, pages: await pagesRead(client, query) };
}

const ownerOf = (teamId: string) => ({ teamId, personId: null, role: 'owner' as const });

/** The route's two statements: the clock, then the page. */
async function listPage(client: Queryable, query: { text: string; values: unknown[] }) {
  await client.query('SELECT statement_timestamp() AS now');
  return client.query(query.text, query.values);
}

async function measureLists(db: Db, samples: number): Promise<ListFigure[]> {
  const figures: ListFigure[] = [];
  const client = await db.connect();
  try {
    for (const { name, filters } of listCases(teamIds.large)) {
      const small = listCases(teamIds.small).find((c) => c.name === name)!.filters;
      // As an owner, who sees every folder: the page's SQL carries no folder rule to weigh.
      const after = jobPageQuery(ownerOf(teamIds.large), filters as JobListQuery, PAGE);
      const afterSmall = jobPageQuery(ownerOf(teamIds.small), small as JobListQuery, PAGE);
      const before = pageQueryBefore(teamIds.large, filters, PAGE);
      const figure: ListFigure = {
        name,
        small: await measure(client, samples, afterSmall),
        large: await measure(client, samples, after),
        // Without the 013 indexes: dropped inside a transaction that is rolled back.
        largeBefore: await withoutIndexes(client, () => measure(client, samples, before)),
      };
      figures.push(figure);
    }
  } finally {
    client.release();
  }
  return figures;
}

async function withoutIndexes<T>(client: Queryable, work: () => Promise<T>): Promise<T> {
  await client.query('BEGIN');
  try {
    for (const index of INDEXES_013) await client.query(`DROP INDEX ${index}`);
    return await work();
  } finally {
    await client.query('ROLLBACK');
  }
}

/**
 * One job's writes as a run makes them: created, taken (status, lease), three progress reports, a lease
 * renewal, finished. Each statement commits on its own, as in the server.
 */
async function jobLifecycle(db: Db, table: string, teamId: string, n: number) {
  const id = `job_w_${table}_${n}_${Math.random().toString(36).slice(2)}`;
  await db.query(
    `INSERT INTO ${table} (id, team_id, source, tool, model, status, input, estimated_duration_ms,
       estimated_cost_cents, pricing_id, billing, provider, provider_model)
     VALUES ($1, $2, 'api', 'image', 'model-1', 'queued', '{}', 1000, 10, 'p', 'per_image', 'local', 'sketch')`,
    [id, teamId],
  );
  await db.query(
    `UPDATE ${table} SET status = 'running', started_at = now(), run_token = gen_random_uuid(),
       lease_expires_at = now() + interval '30 seconds', updated_at = now() WHERE id = $1`,
    [id],
  );
  for (let p = 1; p <= 3; p++) {
    await db.query(
      `UPDATE ${table} SET progress = $2, progress_message = 'working', updated_at = now() WHERE id = $1`,
      [id, p / 4],
    );
  }
  await db.query(
    `UPDATE ${table} SET lease_expires_at = now() + interval '30 seconds', updated_at = now() WHERE id = $1`,
    [id],
  );
  await db.query(
    `UPDATE ${table} SET status = 'completed', output = '{"outputs":[]}', actual_cost_cents = 10,
       completed_at = now(), progress = NULL, progress_message = NULL, updated_at = now() WHERE id = $1`,
    [id],
  );
}

export interface WriteFigure {
  /** Median ms of one job's seven writes, with and without the 013 indexes, alternating rounds. */
  withIndexesMs: number;
  withoutIndexesMs: number;
  rounds: number;
}

/** Two copies of the 100k team's jobs, one without the 013 indexes; job lifecycles on each, alternating. */
async function measureWrites(db: Db, rounds: number, perRound: number): Promise<WriteFigure> {
  for (const table of ['bench_jobs_with', 'bench_jobs_without']) {
    await db.query(`CREATE TABLE ${table} (LIKE jobs INCLUDING ALL)`);
    await db.query(`INSERT INTO ${table} SELECT * FROM jobs WHERE team_id = $1`, [teamIds.large]);
  }
  // LIKE names the copied indexes itself: drop the copies of 013's by their definition.
  const { rows } = await db.query<{ indexname: string; indexdef: string }>(
    `SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'bench_jobs_without'`,
  );
  const columns013 = [
    '(team_id, status,',
    '(team_id, tool,',
    '(team_id, model,',
    '(team_id, folder_id,',
    '(team_id, api_key_id,',
  ];
  for (const row of rows) {
    if (columns013.some((c) => row.indexdef.includes(c))) await db.query(`DROP INDEX ${row.indexname}`);
  }
  await db.query('ANALYZE bench_jobs_with');
  await db.query('ANALYZE bench_jobs_without');
  const withMs: number[] = [];
  const withoutMs: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const order =
      round % 2 === 0 ? ['bench_jobs_with', 'bench_jobs_without'] : ['bench_jobs_without', 'bench_jobs_with'];
    for (const table of order) {
      const started = performance.now();
      for (let i = 0; i < perRound; i++) await jobLifecycle(db, table, teamIds.large, i);
      (table === 'bench_jobs_with' ? withMs : withoutMs).push((performance.now() - started) / perRound);
    }
  }
  return {
    withIndexesMs: percentile(withMs, 0.5),
    withoutIndexesMs: percentile(withoutMs, 0.5),
    rounds,
  };
}

export interface JobListFigures {
  lists: ListFigure[];
  writes: WriteFigure;
  samples: number;
}

export async function benchJobList(
  options: { samples?: number; writeRounds?: number; jobsPerRound?: number } = {},
): Promise<JobListFigures> {
  const { samples = 40, writeRounds = 6, jobsPerRound = 50 } = options;
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mc-bench-job-list-'));
  const database = await startEmbeddedPostgres(dataDir, createLogger('warn'));
  const db = createPool(database.url, 4);
  try {
    await migrate(db);
    for (const [team, count] of [
      [teamIds.small, SMALL],
      [teamIds.large, LARGE],
    ] as const) {
      await db.query(`INSERT INTO teams (id, name, slug) VALUES ($1::uuid, 'Bench', $1::text)`, [team]);
      await seedJobs(db, team, count);
    }
    await db.query('VACUUM ANALYZE jobs');
    const lists = await measureLists(db, samples);
    const writes = await measureWrites(db, writeRounds, jobsPerRound);
    return { lists, writes, samples };
  } finally {
    await db.end();
    await database.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

/** The table rows: each case at 100 and 100k jobs (p50/p95 ms), the 100k figure before 013, the target. */
export function formatJobList(figures: JobListFigures): string {
  const ms = (f: Timing) => `${f.p50.toFixed(2)}/${f.p95.toFixed(2)} (${f.pages})`;
  const lines = [
    `GET /v2/jobs database work, p50/p95 ms of ${figures.samples} (pages read) (target: flat, < 5 ms at 100k for a filter that matches nothing)`,
    `  ${'filter'.padEnd(26)} ${'100 jobs'.padStart(20)} ${'100k jobs'.padStart(20)} ${'100k before 013'.padStart(22)}`,
    ...figures.lists.map(
      (f) =>
        `  ${f.name.padEnd(26)} ${ms(f.small).padStart(20)} ${ms(f.large).padStart(20)} ${ms(f.largeBefore).padStart(22)}`,
    ),
    `job writes (create, take, 3 progress, lease, finish), median of ${figures.writes.rounds} rounds: ${figures.writes.withIndexesMs.toFixed(2)} ms with the 013 indexes, ${figures.writes.withoutIndexesMs.toFixed(2)} ms without (×${(figures.writes.withIndexesMs / figures.writes.withoutIndexesMs).toFixed(2)})`,
  ];
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await benchJobList({ samples: Number(process.env.BENCH_SAMPLES ?? 40) });
  process.stdout.write(`${formatJobList(figures)}\n`);
}
