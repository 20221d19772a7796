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
import { createLogger } from '../src/server/logger.ts';
import { percentile } from './jobs.ts';

/*
 * Analytics over 1,000,000 charges (the demo history at that size: about 3.2 million ledger rows and
 * 1.1 million jobs of one team) on PostgreSQL: p50 and p95 of the summary, time series and breakdown,
 * for the default 30 days and for a whole year. Target: p50 under 150 ms, p95 under 400 ms.
 * `npx tsx bench/analytics.ts` runs it alone; BENCH_CHARGES changes the size.
 */

export interface AnalyticsBenchRow {
  name: string;
  p50: number;
  p95: number;
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
    const viewer: Viewer = { teamId: seeded.teamId, scope: 'full', personId: null, apiKeyIds: [] };
    const month = { from: '2026-10-25', to: '2026-11-24', timezone: 'Europe/Paris' };
    const year = { from: '2025-11-24', to: '2026-11-24', timezone: 'Europe/Paris' };
    const cases: Array<[string, () => Promise<unknown>]> = [
      [
        'summary, 30 days, vs previous',
        () => analyticsSummary(db, viewer, AnalyticsSummaryQuery.parse(month)),
      ],
      [
        'summary, 12 months, vs previous',
        () => analyticsSummary(db, viewer, AnalyticsSummaryQuery.parse(year)),
      ],
      [
        'timeseries, 30 days by day',
        () => analyticsTimeseries(db, viewer, AnalyticsTimeseriesQuery.parse({ ...month, bucket: 'day' })),
      ],
      [
        'timeseries, 12 months by day',
        () => analyticsTimeseries(db, viewer, AnalyticsTimeseriesQuery.parse({ ...year, bucket: 'day' })),
      ],
      [
        'breakdown by model, 30 days',
        () => analyticsBreakdown(db, viewer, AnalyticsBreakdownQuery.parse({ ...month, dimension: 'model' })),
      ],
      [
        'breakdown by member, 12 months',
        () => analyticsBreakdown(db, viewer, AnalyticsBreakdownQuery.parse({ ...year, dimension: 'member' })),
      ],
    ];
    const rows: AnalyticsBenchRow[] = [];
    for (const [name, run] of cases) {
      for (let i = 0; i < 3; i++) await run(); // warm the cache and the plans
      const times: number[] = [];
      for (let i = 0; i < runs; i++) {
        const t0 = performance.now();
        await run();
        times.push(performance.now() - t0);
      }
      rows.push({
        name,
        p50: Math.round(percentile(times, 0.5) * 10) / 10,
        p95: Math.round(percentile(times, 0.95) * 10) / 10,
      });
    }
    return { charges: seeded.charges, seedSeconds, rows };
  } finally {
    await db.end();
    await embedded?.stop();
    if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
  }
}

/** The lines `npm run bench` prints. */
export function analyticsTable(result: Awaited<ReturnType<typeof benchAnalytics>>): string {
  const lines = [
    `analytics over ${result.charges.toLocaleString('en')} charges (seeded in ${result.seedSeconds} s):`,
  ];
  for (const row of result.rows) {
    lines.push(
      `  ${row.name.padEnd(34)} p50 ${String(row.p50).padStart(7)} ms   p95 ${String(row.p95).padStart(7)} ms`,
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
