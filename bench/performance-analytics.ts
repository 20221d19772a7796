import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';
import {
  AnalyticsPerformanceQuery,
  AnalyticsPerformanceTimeseriesQuery,
} from '../src/contract/analytics-performance.ts';
import { type EmbeddedDatabase, startEmbeddedPostgres } from '../src/server/db/embedded.ts';
import { migrate } from '../src/server/db/migrate.ts';
import { createPool, type Db } from '../src/server/db/pool.ts';
import type { Viewer } from '../src/server/domain/analytics/filters.ts';
import {
  analyticsPerformance,
  analyticsPerformanceTimeseries,
  type PerformanceReads,
} from '../src/server/domain/analytics/performance.ts';
import { rebuildPerformanceRollup } from '../src/server/domain/analytics/performance-rebuild.ts';
import { createLogger } from '../src/server/logger.ts';
import { percentile } from './jobs.ts';

/*
 * Performance analytics over 1,000,000 finished jobs of one team (a year of them, with every timeline
 * moment, six models at three providers, a tenth failed or cancelled): p50 and p95 of
 * GET /v2/analytics/performance's work (the domain function the route calls, in its snapshot) for the
 * default 30 days and for the whole year, and of the series. Target: p95 under 150 ms over the million.
 * Each query is timed twice in the same run, alternating: as served (`auto`: the rollup of migration 028
 * plus the jobs of cut hours) and exact from the jobs alone (percentile_cont, how it was answered before).
 * `npx tsx bench/performance-analytics.ts` runs it alone; BENCH_JOBS changes the size, DATABASE_URL the
 * database (else an embedded one in a temporary directory).
 */

export const TARGET_P95_MS = 150;

interface Percentiles {
  p50: number;
  p95: number;
}

export interface PerformanceBenchRow {
  name: string;
  served: Percentiles;
  exact: Percentiles;
  method: string;
}

const NOW = new Date('2026-11-24T12:00:00Z');

/**
 * Inserts `count` finished jobs spread evenly over the year before NOW, oldest first (as a live table
 * fills: the indexes on creation time grow at their right edge), in statements of 250,000 rows with the
 * triggers off (the analytics rollups' would take most of an hour), then builds the performance rollup
 * from them as its trigger would have (rebuildPerformanceRollup; performance.test.ts holds the two equal).
 */
async function seed(db: Db, teamId: string, count: number): Promise<SeedTimes> {
  const client = await db.connect();
  const times: SeedTimes = { jobs: 0, rollup: 0, vacuum: 0 };
  try {
    let t0 = performance.now();
    await client.query('SET session_replication_role = replica');
    await client.query("SET work_mem = '256MB'");
    await insertJobs(client, teamId, count, 250_000);
    await client.query('RESET session_replication_role');
    times.jobs = performance.now() - t0;
    t0 = performance.now();
    await client.query('BEGIN');
    await rebuildPerformanceRollup(client, teamId);
    await client.query('COMMIT');
    await client.query('RESET work_mem');
    times.rollup = performance.now() - t0;
  } finally {
    client.release();
  }
  const t0 = performance.now();
  // Vacuumed, as autovacuum keeps a live table: the rollup's reads are index-only scans.
  await db.query('VACUUM ANALYZE jobs');
  await db.query('VACUUM ANALYZE performance_rollup');
  times.vacuum = performance.now() - t0;
  return times;
}

interface SeedTimes {
  jobs: number;
  rollup: number;
  vacuum: number;
}

async function insertJobs(db: pg.PoolClient, teamId: string, count: number, batch: number): Promise<void> {
  const year = 365 * 86_400_000;
  for (let done = 0; done < count; done += batch) {
    const n = Math.min(batch, count - done);
    // Deterministic per row (hashes of its number), so two runs seed the same history. Row i is created
    // in the i-th of `count` equal slices of the year, at a hashed moment inside it.
    await db.query(
      `WITH g AS (
         SELECT i, ('x' || substr(md5(i::text), 1, 8))::bit(32)::int & 2147483647 AS h1,
                ('x' || substr(md5(i::text), 9, 8))::bit(32)::int & 2147483647 AS h2,
                ('x' || substr(md5(i::text), 17, 8))::bit(32)::int & 2147483647 AS h3
           FROM generate_series($3::int, $3::int + $4::int - 1) i),
       m AS (
         SELECT g.*, (ARRAY['flux-dev', 'flux-schnell', 'kling-video', 'veo-3', 'local-sketch', 'whisper'])[1 + h1 % 6] AS model,
                $2::timestamptz - interval '1 millisecond' * ($6::float8 - $6::float8 / $5::int * (i + (h2 % 1000) / 1000.0)) AS created,
                CASE WHEN h3 % 20 = 0 THEN 'failed' WHEN h3 % 20 = 1 THEN 'cancelled' ELSE 'completed' END AS status,
                (h1 % 5000) * interval '1 millisecond' AS queued,
                (h2 % 30000) * interval '1 millisecond' AS pqueue,
                (3000 + h3 % 60000) * interval '1 millisecond' AS prun,
                (200 + h1 % 2000) * interval '1 millisecond' AS dl
           FROM g)
       INSERT INTO jobs (id, team_id, source, tool, model, status, input, estimated_duration_ms, estimated_cost_cents,
                         pricing_id, billing, provider, provider_model, created_at, updated_at, started_at,
                         submitted_at, provider_started_at, provider_finished_at, completed_at, error)
       SELECT 'job_bench_' || lpad(i::text, 8, '0'), $1, (ARRAY['app', 'api', 'mcp'])[1 + h2 % 3],
              CASE WHEN model IN ('kling-video', 'veo-3') THEN 'video' WHEN model = 'whisper' THEN 'transcribe' ELSE 'image' END,
              model, status, '{}', 1000, 10, 'bench', 'per_image',
              CASE WHEN model IN ('local-sketch', 'whisper') THEN 'local' WHEN h1 % 2 = 0 THEN 'fal' ELSE 'replicate' END,
              model, created, created, created + queued, created + queued + interval '40 ms',
              created + queued + interval '40 ms' + pqueue, created + queued + interval '40 ms' + pqueue + prun,
              created + queued + interval '40 ms' + pqueue + prun + dl,
              CASE WHEN status = 'failed'
                   THEN jsonb_build_object('code', (ARRAY['provider_error', 'timeout', 'content_policy'])[1 + h1 % 3],
                                           'message', 'failed') END
         FROM m
        ORDER BY i`,
      [teamId, NOW, done, n, count, year],
    );
  }
}

export async function benchPerformanceAnalytics(
  options: { jobs?: number; runs?: number; databaseUrl?: string } = {},
): Promise<{
  jobs: number;
  seedSeconds: number;
  seedTimes: SeedTimes;
  rollupRows: number;
  rows: PerformanceBenchRow[];
}> {
  const runs = options.runs ?? 40;
  const count = options.jobs ?? 1_000_000;
  let embedded: EmbeddedDatabase | null = null;
  let dataDir: string | null = null;
  let url = options.databaseUrl;
  if (!url) {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'bench-performance-'));
    embedded = await startEmbeddedPostgres(dataDir, createLogger('silent'));
    url = embedded.url;
  }
  const db = createPool(url, 4);
  try {
    await migrate(db);
    const { rows: team } = await db.query<{ id: string }>(
      `INSERT INTO teams (name, slug) VALUES ('bench performance', 'bench-performance-' || gen_random_uuid()) RETURNING id`,
    );
    const teamId = team[0]!.id;
    const started = performance.now();
    const seedTimes = await seed(db, teamId, count);
    const seedSeconds = Math.round((performance.now() - started) / 100) / 10;
    const { rows: kept } = await db.query<{ n: string }>(
      'SELECT count(*) AS n FROM performance_rollup WHERE team_id = $1',
      [teamId],
    );
    const viewer: Viewer = { teamId, scope: 'full', personId: null, role: 'owner', apiKeyIds: [] };
    const month = { from: '2026-10-25', to: '2026-11-24', timezone: 'Europe/Paris' };
    const year = { from: '2025-11-24', to: '2026-11-24', timezone: 'Europe/Paris' };
    const methods = new Map<string, string>();
    const cases: Array<[string, (reads: PerformanceReads) => Promise<{ meta: { percentiles: string } }>]> = [
      [
        'performance, 30 days (default range)',
        (reads) =>
          analyticsPerformance(db, viewer, AnalyticsPerformanceQuery.parse(month), NOW.getTime(), reads),
      ],
      [
        'performance, 12 months (every job)',
        (reads) =>
          analyticsPerformance(db, viewer, AnalyticsPerformanceQuery.parse(year), NOW.getTime(), reads),
      ],
      [
        'performance, 12 months, one model',
        (reads) =>
          analyticsPerformance(
            db,
            viewer,
            AnalyticsPerformanceQuery.parse({ ...year, model: 'flux-dev' }),
            NOW.getTime(),
            reads,
          ),
      ],
      [
        'performance series, 30 days by day, UTC',
        (reads) =>
          analyticsPerformanceTimeseries(
            db,
            viewer,
            AnalyticsPerformanceTimeseriesQuery.parse({ ...month, timezone: 'UTC', bucket: 'day' }),
            NOW.getTime(),
            reads,
          ),
      ],
      [
        'performance series, 12 months by month',
        (reads) =>
          analyticsPerformanceTimeseries(
            db,
            viewer,
            AnalyticsPerformanceTimeseriesQuery.parse({ ...year, bucket: 'month' }),
            NOW.getTime(),
            reads,
          ),
      ],
    ];
    const summarise = (times: number[]): Percentiles => ({
      p50: Math.round(percentile(times, 0.5) * 10) / 10,
      p95: Math.round(percentile(times, 0.95) * 10) / 10,
    });
    const rows: PerformanceBenchRow[] = [];
    for (const [name, run] of cases) {
      for (let i = 0; i < 2; i++) {
        methods.set(name, (await run('auto')).meta.percentiles);
        await run('exact');
      }
      const times: Record<'auto' | 'exact', number[]> = { auto: [], exact: [] };
      // The exact reads take seconds each at this size: fewer of them.
      const exactRuns = Math.max(5, Math.round(runs / 4));
      for (let i = 0; i < runs; i++) {
        const order: ('auto' | 'exact')[] = i % 2 ? ['exact', 'auto'] : ['auto', 'exact'];
        for (const reads of order) {
          if (reads === 'exact' && i >= exactRuns) continue;
          const t0 = performance.now();
          await run(reads);
          times[reads].push(performance.now() - t0);
        }
      }
      rows.push({
        name,
        served: summarise(times.auto),
        exact: summarise(times.exact),
        method: methods.get(name)!,
      });
    }
    return { jobs: count, seedSeconds, seedTimes, rollupRows: Number(kept[0]!.n), rows };
  } finally {
    await db.end();
    await embedded?.stop();
    if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
  }
}

const seconds = (milliseconds: number) => `${Math.round(milliseconds / 100) / 10} s`;
const ms = (value: number) => `${String(value).padStart(8)} ms`;

/** The lines `npm run bench` prints: each figure as served beside the exact read of the jobs, and their ratio. */
export function performanceAnalyticsTable(
  result: Awaited<ReturnType<typeof benchPerformanceAnalytics>>,
): string {
  const lines = [
    `performance analytics over ${result.jobs.toLocaleString('en')} jobs (seeded in ${result.seedSeconds} s: jobs ${seconds(result.seedTimes.jobs)}, rollup ${seconds(result.seedTimes.rollup)}, vacuum ${seconds(result.seedTimes.vacuum)}; ${result.rollupRows.toLocaleString('en')} rollup rows), target p95 < ${TARGET_P95_MS} ms:`,
    `  ${''.padEnd(42)} ${'served (rollup + cut hours)'.padEnd(44)} ${'exact, jobs only (no rollup)'.padEnd(30)} exact / served (p95)`,
  ];
  for (const row of result.rows) {
    const met = row.served.p95 < TARGET_P95_MS;
    const ratio = row.served.p95 > 0 ? Math.round((row.exact.p95 / row.served.p95) * 10) / 10 : 0;
    lines.push(
      `  ${row.name.padEnd(42)} p50 ${ms(row.served.p50)} p95 ${ms(row.served.p95)} ${met ? 'meets  ' : 'MISSES '}${row.method.padEnd(10)} p50 ${ms(row.exact.p50)} p95 ${ms(row.exact.p95)}   ${ratio}×`,
    );
  }
  return `${lines.join('\n')}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const result = await benchPerformanceAnalytics({
    jobs: process.env.BENCH_JOBS ? Number(process.env.BENCH_JOBS) : undefined,
    runs: process.env.BENCH_RUNS ? Number(process.env.BENCH_RUNS) : undefined,
    databaseUrl: process.env.DATABASE_URL,
  });
  process.stdout.write(performanceAnalyticsTable(result));
}

/** A team seeded as the bench seeds it, for looking at plans (bench/perf-explain). */
export async function benchSeedForExplain(db: Db, count: number): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO teams (name, slug) VALUES ('bench performance', 'bench-performance-' || gen_random_uuid()) RETURNING id`,
  );
  await seed(db, rows[0]!.id, count);
  return rows[0]!.id;
}
