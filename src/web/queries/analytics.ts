import { queryOptions } from '@tanstack/react-query';
import type { AnalyticsDimension, AnalyticsTimeseries } from '../../contract/analytics.ts';
import { api } from '../api/client.ts';
import { teamScoped } from '../team/current-team.ts';

/** Range, timezone and filters as the analytics endpoints take them (filters are comma lists or `none`). */
export interface AnalyticsQuery {
  from: string;
  to: string;
  timezone: string;
  capability?: string;
  model?: string;
  folder?: string;
  api_key?: string;
  member?: string;
  creator?: string;
  source?: string;
  status?: string;
}

export type Bucket = 'hour' | 'day' | 'week' | 'month';

/** An explicit comparison period (`compare_to` exclusive); null asks for none. */
export interface Comparison {
  compare_from: string;
  compare_to: string;
}

/** The query parameters of a comparison, or of none. */
function compareParams(comparison: Comparison | null) {
  return comparison ?? { compare: 'none' as const };
}

export const analyticsKeys = {
  get all() {
    return teamScoped(['analytics'] as const);
  },
  summary: (query: AnalyticsQuery, comparison: Comparison | null) =>
    teamScoped(['analytics', 'summary', query, comparison] as const),
  breakdown: (
    query: AnalyticsQuery,
    dimension: AnalyticsDimension,
    limit: number,
    comparison: Comparison | null,
  ) => teamScoped(['analytics', 'breakdown', query, dimension, limit, comparison] as const),
  series: (query: AnalyticsQuery, bucket: Bucket, stack: AnalyticsDimension) =>
    teamScoped(['analytics', 'series', query, bucket, stack] as const),
  performance: (query: AnalyticsQuery) => teamScoped(['analytics', 'performance', query] as const),
  performanceSeries: (query: AnalyticsQuery, bucket: Bucket) =>
    teamScoped(['analytics', 'performance-series', query, bucket] as const),
};

/** Spend is history: a minute of staleness keeps switching back and forth free, focus refreshes it after. */
const STALE_MS = 60_000;

/** Totals of the range, the previous period's (when compared) and the balance. */
export function analyticsSummaryQueryOptions(query: AnalyticsQuery, comparison: Comparison | null) {
  return queryOptions({
    queryKey: analyticsKeys.summary(query, comparison),
    queryFn: () =>
      api().getAnalyticsSummary({
        query: { ...query, ...compareParams(comparison), include_balance: 'true' },
      }),
    staleTime: STALE_MS,
  });
}

/**
 * Rows of one dimension by spend, highest first (the server sums the rest into an `other` row); with a
 * comparison, every row carries its spend in that period too (`previous`), so one request answers both.
 */
export function analyticsBreakdownQueryOptions(
  query: AnalyticsQuery,
  dimension: AnalyticsDimension,
  limit: number,
  comparison: Comparison | null = null,
) {
  return queryOptions({
    queryKey: analyticsKeys.breakdown(query, dimension, limit, comparison),
    queryFn: () =>
      api().getAnalyticsBreakdown({
        query: { ...query, dimension, limit, ...compareParams(comparison) },
      }),
    staleTime: STALE_MS,
  });
}

/** Latency percentiles, failure rate and top errors per model and provider, for the same range and filters. */
export function analyticsPerformanceQueryOptions(query: AnalyticsQuery) {
  return queryOptions({
    queryKey: analyticsKeys.performance(query),
    queryFn: () => api().getAnalyticsPerformance({ query }),
    staleTime: STALE_MS,
  });
}

/** The same figures per calendar bucket, overall and per model and provider. */
export function analyticsPerformanceTimeseriesQueryOptions(query: AnalyticsQuery, bucket: Bucket) {
  return queryOptions({
    queryKey: analyticsKeys.performanceSeries(query, bucket),
    queryFn: () => api().getAnalyticsPerformanceTimeseries({ query: { ...query, bucket } }),
    staleTime: STALE_MS,
  });
}

/** One series in a stacked chart: a value of the stacking dimension, or everything else. */
export interface StackSeries {
  id: string;
  label: string;
  /** The filter value that selects it (`none` for runs without one); null for the "other" series. */
  value: string | null;
}

export interface StackedBucket {
  start: string;
  end: string;
  total: number;
  /** Spend per series id. */
  spend: Record<string, number>;
}

export interface StackedSeries {
  series: StackSeries[];
  buckets: StackedBucket[];
  meta: AnalyticsTimeseries['meta'];
}

/**
 * Rows of the page's long breakdowns (What changed, filter choices, top keys and
 * people): with the same comparison they are one request per dimension, shared through the cache.
 */
export const LONG_BREAKDOWN_ROWS = 100;

/** Series shown apart in a stack; the rest are one "Other" series. */
export const STACK_LIMIT = 7;
export const OTHER_SERIES = '__other__';

/**
 * Spend over time stacked by tool or model, in one request: the series grouped by the dimension
 * (`group_by`), its top STACK_LIMIT values over the range and one "other" group, which the server makes
 * add up to each bucket exactly.
 */
export function analyticsSeriesQueryOptions(
  query: AnalyticsQuery,
  bucket: Bucket,
  stack: AnalyticsDimension,
) {
  return queryOptions({
    queryKey: analyticsKeys.series(query, bucket, stack),
    queryFn: async (): Promise<StackedSeries> =>
      stackedOf(
        await api().getAnalyticsTimeseries({
          query: { ...query, bucket, group_by: stack, limit: STACK_LIMIT },
        }),
      ),
    staleTime: STALE_MS,
  });
}

/**
 * The grouped series as the chart draws it: a series per group that spent something in the range (a
 * value with runs but no spend draws nothing), "Other" last, and each bucket's spend per series.
 */
export function stackedOf(grouped: AnalyticsTimeseries): StackedSeries {
  const idOf = (group: { key: string | null; other: boolean }) =>
    group.other ? OTHER_SERIES : (group.key ?? 'none');
  const spent = new Set<string>();
  for (const bucket of grouped.data)
    for (const group of bucket.groups ?? []) if (group.spend_cents !== 0) spent.add(idOf(group));
  const series: StackSeries[] = grouped.meta.groups
    .filter((group) => spent.has(idOf(group)))
    .map((group) => ({
      id: idOf(group),
      label: group.label,
      value: group.other ? null : (group.key ?? 'none'),
    }));
  const buckets = grouped.data.map((bucket) => {
    const spend: Record<string, number> = {};
    for (const group of bucket.groups ?? [])
      if (spent.has(idOf(group))) spend[idOf(group)] = group.spend_cents;
    return { start: bucket.start, end: bucket.end, total: bucket.spend_cents, spend };
  });
  return { series, buckets, meta: grouped.meta };
}
