import type {
  AnalyticsPerformance,
  AnalyticsPerformanceQuery,
  AnalyticsPerformanceRow,
  LatencyPercentiles,
  PerformancePhase,
} from '../../../contract/analytics-performance.ts';
import { PERFORMANCE_TOP_ERRORS } from '../../../contract/analytics-performance.ts';
import type { Db } from '../../db/pool.ts';
import { filterConditions, JOB_COLUMNS, Params, type Viewer } from './filters.ts';
import { filtersOf, inSnapshot, metaOf } from './meta.ts';
import { resolveQueryInstants } from './range.ts';

/** Each span as SQL over `j`: milliseconds between two moments of the timeline, null if either is missing. */
const SPANS: Record<'total' | PerformancePhase, string> = {
  total: 'j.completed_at - j.created_at',
  queued: 'j.started_at - j.created_at',
  provider_queue: 'j.provider_started_at - j.submitted_at',
  provider_run: 'j.provider_finished_at - j.provider_started_at',
  downloading: 'j.completed_at - j.provider_finished_at',
};

type SpanName = keyof typeof SPANS;
const SPAN_NAMES = Object.keys(SPANS) as SpanName[];

function spanColumns(name: SpanName): string {
  // Only completed jobs say how long a model takes; a clock step may make a span negative: not a sample.
  const ms = `extract(epoch FROM ${SPANS[name]}) * 1000`;
  const where = `FILTER (WHERE j.status = 'completed' AND ${ms} >= 0)`;
  return `count(${ms}) ${where} AS ${name}_n,
          percentile_cont(ARRAY[0.5, 0.9, 0.99]) WITHIN GROUP (ORDER BY (${ms})::float8) ${where} AS ${name}_p`;
}

type Row = { model: string; provider: string; completed: string; failed: string; cancelled: string } & Record<
  string,
  unknown
>;

function percentiles(row: Row, name: SpanName): LatencyPercentiles | null {
  const samples = Number(row[`${name}_n`]);
  const p = row[`${name}_p`] as number[] | null;
  if (samples === 0 || !p) return null;
  return { samples, p50_ms: p[0]!, p90_ms: p[1]!, p99_ms: p[2]! };
}

/**
 * Latency and failures per model and provider, over the finished jobs created in the range (the same
 * filters as spend). Percentiles are PostgreSQL's `percentile_cont`, read in one pass over the team's jobs
 * in the range (jobs_team_created_idx), in the same snapshot as `data_as_of`.
 */
export async function analyticsPerformance(
  db: Db,
  viewer: Viewer,
  query: AnalyticsPerformanceQuery,
  now?: number,
): Promise<AnalyticsPerformance> {
  const filters = filtersOf(query);
  return inSnapshot(db, query.timezone, async (tx, asOf) => {
    const range = resolveQueryInstants({ ...query, compare: 'none' }, now ?? asOf.getTime());
    const p = new Params();
    const where = [
      `j.team_id = ${p.add(viewer.teamId)}`,
      `j.created_at >= ${p.add(range.from)}`,
      `j.created_at < ${p.add(range.to)}`,
      `j.status IN ('completed', 'failed', 'cancelled')`,
      ...filterConditions(p, JOB_COLUMNS, filters, viewer),
    ].join(' AND ');
    const { rows } = await tx.query<Row>(
      `SELECT j.model, j.provider,
              count(*) FILTER (WHERE j.status = 'completed') AS completed,
              count(*) FILTER (WHERE j.status = 'failed') AS failed,
              count(*) FILTER (WHERE j.status = 'cancelled') AS cancelled,
              ${SPAN_NAMES.map(spanColumns).join(',\n')}
         FROM jobs j WHERE ${where}
        GROUP BY 1, 2`,
      p.values,
    );
    const errors = await tx.query<{ model: string; provider: string; code: string; count: string }>(
      `SELECT model, provider, code, count FROM (
         SELECT j.model, j.provider, coalesce(j.error->>'code', 'unknown') AS code, count(*) AS count,
                row_number() OVER (PARTITION BY j.model, j.provider
                                   ORDER BY count(*) DESC, coalesce(j.error->>'code', 'unknown')) AS rank
           FROM jobs j WHERE ${where} AND j.status = 'failed'
          GROUP BY 1, 2, 3) e
        WHERE rank <= ${PERFORMANCE_TOP_ERRORS}
        ORDER BY rank`,
      p.values,
    );
    const data: AnalyticsPerformanceRow[] = rows.map((row) => {
      const completed = Number(row.completed);
      const failed = Number(row.failed);
      const cancelled = Number(row.cancelled);
      return {
        model: row.model,
        provider: row.provider,
        jobs: completed + failed + cancelled,
        completed,
        failed,
        cancelled,
        failure_rate: completed + failed > 0 ? failed / (completed + failed) : null,
        total: percentiles(row, 'total'),
        phases: {
          queued: percentiles(row, 'queued'),
          provider_queue: percentiles(row, 'provider_queue'),
          provider_run: percentiles(row, 'provider_run'),
          downloading: percentiles(row, 'downloading'),
        },
        top_errors: errors.rows
          .filter((e) => e.model === row.model && e.provider === row.provider)
          .map((e) => ({ code: e.code, count: Number(e.count) })),
      };
    });
    data.sort(
      (a, b) => b.jobs - a.jobs || a.model.localeCompare(b.model) || a.provider.localeCompare(b.provider),
    );
    return { data, meta: { ...metaOf(range, filters, viewer, asOf), time_basis: 'job_created_at' } };
  });
}
