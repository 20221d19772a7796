import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  AnalyticsBreakdownQuery,
  AnalyticsSummaryQuery,
  AnalyticsTimeseriesQuery,
} from '../src/contract/analytics.ts';
import { type EmbeddedDatabase, startEmbeddedPostgres } from '../src/server/db/embedded.ts';
import { migrate } from '../src/server/db/migrate.ts';
import { createPool } from '../src/server/db/pool.ts';
import { analyticsBreakdown } from '../src/server/domain/analytics/breakdown.ts';
import { seedDemo } from '../src/server/domain/analytics/demo-seed.ts';
import type { Viewer } from '../src/server/domain/analytics/filters.ts';
import { analyticsSummary } from '../src/server/domain/analytics/summary.ts';
import { analyticsTimeseries } from '../src/server/domain/analytics/timeseries.ts';
import type { Reads } from '../src/server/domain/analytics/totals.ts';
import { createLogger } from '../src/server/logger.ts';
import { percentile } from './jobs.ts';

/*
 * Analytics over 1,000,000 charges (the demo history at that size: about 3.2 million ledger rows and
 * 1.1 million jobs of one team) on PostgreSQL: p50 and p95 of the summary, time series and breakdown,
 * for the default 30 days and for a whole year. Target: p50 under 150 ms, p95 under 400 ms.
 * Each query is timed twice in the same run, alternating: as served (hourly rollups plus the cut hours
 * from the ledger) and from the ledger alone (how it was answered before the rollups).
 * `npx tsx bench/analytics.ts` runs it alone; BENCH_CHARGES changes the size.
 */

export const TARGET_P50_MS = 150;
export const TARGET_P95_MS = 400;

export interface Percentiles {
  p50: number;
  p95: number;
}

export interface AnalyticsBenchRow {
  name: string;
  /** As served: rollups plus the ledger for cut hours. */
  rollup: Percentiles;
  /** From the ledger alone (before the rollups). */
  ledger: Percentiles;
}

export async function benchAnalytics(
  options: { charges?: number; runs?: number; databaseUrl?: string } = {},
): Promise<{ charges: number; seedSeconds: number; rows: AnalyticsBenchRow[] }> {
  const runs = options.runs ?? 40;
  let embedded: EmbeddedDatabase | null = null;
  let dataDir: string | null = null;
  let url = options.databaseUrl;
  if (!url) {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'bench-analytics-'));
    embedded = await startEmbeddedPostgres(dataDir, createLogger('silent'));
    url = embedded.url;
  }
  const db = createPool(url, 4);
  try {
    await migrate(db);
    const now = new Date('2026-11-24T12:00:00Z');
    const started = performance.now();
    const seeded = await seedDemo(db, {
      charges: options.charges ?? 1_000_000,
      now,
      slug: 'bench-analytics',
    });
    const seedSeconds = Math.round((performance.now() - started) / 100) / 10;
    const viewer: Viewer = {
      teamId: seeded.teamId,
      scope: 'full',
      personId: null,
      role: 'owner',
      apiKeyIds: [],
    };
    const month = { from: '2026-10-25', to: '2026-11-24', timezone: 'Europe/Paris' };
    const year = { from: '2025-11-24', to: '2026-11-24', timezone: 'Europe/Paris' };
    const cases: Array<[string, (reads: Reads) => Promise<unknown>]> = [
      [
        'summary, 30 days, vs previous',
        (reads) => analyticsSummary(db, viewer, AnalyticsSummaryQuery.parse(month), undefined, reads),
      ],
      [
        'summary, 12 months, vs previous',
        (reads) => analyticsSummary(db, viewer, AnalyticsSummaryQuery.parse(year), undefined, reads),
      ],
      [
        'timeseries, 30 days by day',
        (reads) =>
          analyticsTimeseries(
            db,
            viewer,
            AnalyticsTimeseriesQuery.parse({ ...month, bucket: 'day' }),
            undefined,
            reads,
          ),
      ],
      [
        'timeseries, 12 months by day',
        (reads) =>
          analyticsTimeseries(
            db,
            viewer,
            AnalyticsTimeseriesQuery.parse({ ...year, bucket: 'day' }),
            undefined,
            reads,
          ),
      ],
      [
        // A half-hour zone: every day starts inside a UTC hour, read from the ledger (366 cut hours).
        'timeseries, 12 months by day, Kolkata',
        (reads) =>
          analyticsTimeseries(
            db,
            viewer,
            AnalyticsTimeseriesQuery.parse({ ...year, timezone: 'Asia/Kolkata', bucket: 'day' }),
            undefined,
            reads,
          ),
      ],
      [
        'breakdown by model, 30 days',
        (reads) =>
          analyticsBreakdown(
            db,
            viewer,
            AnalyticsBreakdownQuery.parse({ ...month, dimension: 'model' }),
            undefined,
            reads,
          ),
      ],
      [
        'breakdown by member, 12 months',
        (reads) =>
          analyticsBreakdown(
            db,
            viewer,
            AnalyticsBreakdownQuery.parse({ ...year, dimension: 'member' }),
            undefined,
            reads,
          ),
      ],
      [
        // Columns of two grouping sets (model and folder): read from the ledger alone, as before.
        'folder breakdown, 12 months, 1 model',
        (reads) =>
          analyticsBreakdown(
            db,
            viewer,
            AnalyticsBreakdownQuery.parse({ ...year, dimension: 'folder', model: 'flux-schnell' }),
            undefined,
            reads,
          ),
      ],
    ];
    const summarise = (times: number[]): Percentiles => ({
      p50: Math.round(percentile(times, 0.5) * 10) / 10,
      p95: Math.round(percentile(times, 0.95) * 10) / 10,
    });
    const rows: AnalyticsBenchRow[] = [];
    for (const [name, run] of cases) {
      // Warm the cache and the plans of both paths.
      for (let i = 0; i < 3; i++) {
        await run('rollup');
        await run('ledger');
      }
      const times: Record<Reads, number[]> = { rollup: [], ledger: [] };
      for (let i = 0; i < runs; i++) {
        // Alternating, so both see the same machine.
        for (const reads of i % 2 ? (['ledger', 'rollup'] as const) : (['rollup', 'ledger'] as const)) {
          const t0 = performance.now();
          await run(reads);
          times[reads].push(performance.now() - t0);
        }
      }
      rows.push({ name, rollup: summarise(times.rollup), ledger: summarise(times.ledger) });
    }
    return { charges: seeded.charges, seedSeconds, rows };
  } finally {
    await db.end();
    await embedded?.stop();
    if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
  }
}

const ms = (value: number) => `${String(value).padStart(7)} ms`;

/** The lines `npm run bench` prints: each figure beside its target, as served and from the ledger alone. */
export function analyticsTable(result: Awaited<ReturnType<typeof benchAnalytics>>): string {
  const lines = [
    `analytics over ${result.charges.toLocaleString('en')} charges (seeded in ${result.seedSeconds} s), target p50 < ${TARGET_P50_MS} ms, p95 < ${TARGET_P95_MS} ms:`,
    `  ${''.padEnd(38)} ${'served (rollup + cut hours)'.padEnd(38)} ledger only (before the rollup)`,
  ];
  for (const row of result.rows) {
    const met = row.rollup.p50 < TARGET_P50_MS && row.rollup.p95 < TARGET_P95_MS;
    lines.push(
      `  ${row.name.padEnd(38)} p50 ${ms(row.rollup.p50)} p95 ${ms(row.rollup.p95)} ${met ? 'meets  ' : 'MISSES '}  p50 ${ms(row.ledger.p50)} p95 ${ms(row.ledger.p95)}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const charges = process.env.BENCH_CHARGES ? Number(process.env.BENCH_CHARGES) : undefined;
  process.stdout.write(
    analyticsTable(await benchAnalytics({ charges, databaseUrl: process.env.DATABASE_URL })),
  );
}
