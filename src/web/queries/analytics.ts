import { queryOptions } from '@tanstack/react-query';
import type {
  AnalyticsBreakdown,
  AnalyticsDimension,
  AnalyticsTimeseries,
} from '../../contract/analytics.ts';
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
 * Rows of the page's long breakdowns (What changed, the stack's values, filter choices, top keys and
 * people): with the same comparison they are one request per dimension, shared through the cache.
 */
export const LONG_BREAKDOWN_ROWS = 100;

/** Series shown apart in a stack; the rest are one "Other" series. */
export const STACK_LIMIT = 7;
export const OTHER_SERIES = '__other__';

/**
 * Spend over time stacked by tool or model. The time series endpoint has no group-by, so this takes
 * the top values of the dimension, then one series per value (filtered to it) beside the total series;
 * "Other" is the total minus the values shown, so every bar adds up to the total exactly. The values
 * come from the page's long breakdown of the dimension (the cache's, when What changed or a filter
 * already asked for it), so they cost no request of their own.
 */
export function analyticsSeriesQueryOptions(
  query: AnalyticsQuery,
  bucket: Bucket,
  stack: AnalyticsDimension,
  comparison: Comparison | null,
) {
  return queryOptions({
    queryKey: analyticsKeys.series(query, bucket, stack),
    queryFn: async ({ client }): Promise<StackedSeries> => {
      const [total, top] = await Promise.all([
        api().getAnalyticsTimeseries({ query: { ...query, bucket } }),
        client.fetchQuery(analyticsBreakdownQueryOptions(query, stack, LONG_BREAKDOWN_ROWS, comparison)),
      ]);
      const series = stackSeriesOf(top);
      const parts = await Promise.all(
        series.map((one) =>
          api().getAnalyticsTimeseries({ query: { ...query, [stack]: one.value ?? 'none', bucket } }),
        ),
      );
      return stackBuckets(total, series, parts);
    },
    staleTime: STALE_MS,
  });
}

/** The values with the most spend (the rows come highest first), at most STACK_LIMIT. */
export function stackSeriesOf(top: AnalyticsBreakdown): StackSeries[] {
  return top.data
    .filter((row) => !row.other && row.spend_cents !== 0)
    .slice(0, STACK_LIMIT)
    .map((row) => ({ id: row.key ?? 'none', label: row.label, value: row.key ?? 'none' }));
}

/** Puts the per-value series beside the total; the remainder of each bucket goes to "Other". */
export function stackBuckets(
  total: AnalyticsTimeseries,
  series: StackSeries[],
  parts: AnalyticsTimeseries[],
): StackedSeries {
  let otherSeen = false;
  const buckets = total.data.map((bucket, index) => {
    const spend: Record<string, number> = {};
    let shown = 0;
    series.forEach((one, at) => {
      const value = parts[at]?.data[index]?.spend_cents ?? 0;
      spend[one.id] = value;
      shown += value;
    });
    const rest = bucket.spend_cents - shown;
    if (rest !== 0) otherSeen = true;
    spend[OTHER_SERIES] = rest;
    return { start: bucket.start, end: bucket.end, total: bucket.spend_cents, spend };
  });
  const all = otherSeen ? [...series, { id: OTHER_SERIES, label: 'Other', value: null }] : series;
  return { series: all, buckets, meta: total.meta };
}
