import type { AnalyticsPerformanceTimeseries } from '../../../../contract/analytics-performance.ts';

/* The performance time series as chart rows: one latency line per busiest model, the failure rate overall. */

export type Percentile = 'p50' | 'p90' | 'p99';

/** Lines in the latency chart: more than this many models read as noise, so the busiest few are drawn. */
export const PERFORMANCE_TOP_MODELS = 4;

export interface LatencySeries {
  /** `model/provider`: a model served by two providers is two lines (their times differ). */
  id: string;
  label: string;
}

export interface PerformancePoint {
  start: string;
  label: string;
  jobs: number;
  failure_rate: number | null;
  /** The chosen percentile of total time per series id, in ms; absent where the model completed nothing. */
  latency: Record<string, number>;
}

/**
 * The busiest models of the range (by finished runs over every bucket) and, per bucket, the chosen
 * percentile of their total time and the overall failure rate.
 */
export function performancePoints(
  timeseries: AnalyticsPerformanceTimeseries,
  percentile: Percentile,
  labelOf: (start: string) => string,
): { series: LatencySeries[]; points: PerformancePoint[] } {
  const jobsBySeries = new Map<string, { model: string; provider: string; jobs: number }>();
  for (const bucket of timeseries.data) {
    for (const row of bucket.models) {
      const id = `${row.model}/${row.provider}`;
      const seen = jobsBySeries.get(id);
      if (seen) seen.jobs += row.jobs;
      else jobsBySeries.set(id, { model: row.model, provider: row.provider, jobs: row.jobs });
    }
  }
  const top = [...jobsBySeries.entries()]
    .sort(([a, x], [b, y]) => y.jobs - x.jobs || a.localeCompare(b))
    .slice(0, PERFORMANCE_TOP_MODELS);
  const models = top.map(([, entry]) => entry.model);
  const series = top.map(([id, entry]) => ({
    id,
    // The provider only where the model appears at more than one of them.
    label:
      models.filter((model) => model === entry.model).length > 1
        ? `${entry.model} at ${entry.provider}`
        : entry.model,
  }));
  const key = `${percentile}_ms` as const;
  const points = timeseries.data.map((bucket) => {
    const latency: Record<string, number> = {};
    for (const row of bucket.models) {
      const id = `${row.model}/${row.provider}`;
      if (row.total && series.some((s) => s.id === id)) latency[id] = row.total[key];
    }
    return {
      start: bucket.start,
      label: labelOf(bucket.start),
      jobs: bucket.jobs,
      failure_rate: bucket.failure_rate,
      latency,
    };
  });
  return { series, points };
}
