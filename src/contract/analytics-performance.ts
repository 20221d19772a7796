import { z } from 'zod';
import {
  ANALYTICS_DEFAULT_TIMEZONE,
  AnalyticsBound,
  AnalyticsBucket,
  AnalyticsMeta,
  AnalyticsTimeZone,
  analyticsFilters,
  rangeProblem,
} from './analytics.ts';
import { defineEndpoint } from './endpoint.ts';

/*
 * `GET /v2/analytics/performance` (ours, issue #33): how fast and how reliable each model is on this server,
 * per model and provider, read from the jobs' timelines (JobTimeline in jobs.ts). Jobs count by when they
 * were created; only finished jobs (completed, failed, cancelled) count.
 */

/** The phases of a job's time (JobTimeline): each is measured only where both of its moments are recorded. */
export const PERFORMANCE_PHASES = ['queued', 'provider_queue', 'provider_run', 'downloading'] as const;
export type PerformancePhase = (typeof PERFORMANCE_PHASES)[number];

/** How many error codes each row lists, most frequent first. */
export const PERFORMANCE_TOP_ERRORS = 5;

/** Percentiles up to this many finished jobs in an answer are exact; above, read from the rollup's histograms. */
export const PERFORMANCE_EXACT_MAX_JOBS = 10_000;

/** The bound of a percentile read from the histograms: this share of the exact value, plus half a millisecond. */
export const PERFORMANCE_HISTOGRAM_ERROR = 0.05;

const performanceShape = {
  from: AnalyticsBound.optional().meta({
    description: 'Range start, inclusive. Default: `to` minus 30 days.',
  }),
  to: AnalyticsBound.optional().meta({ description: 'Range end, exclusive. Default: now.' }),
  timezone: AnalyticsTimeZone.default(ANALYTICS_DEFAULT_TIMEZONE).meta({
    description: 'IANA time zone for date-only bounds and calendar buckets. Default `UTC`.',
  }),
  ...analyticsFilters,
  format: z.enum(['json', 'csv']).optional().meta({
    description:
      'Answer as `csv` (text/csv, one row per figure row) instead of JSON; `Accept: text/csv` does the same.',
  }),
};

function checkRange(
  query: { from?: string | undefined; to?: string | undefined; timezone: string },
  ctx: z.core.$RefinementCtx,
) {
  if (query.from === undefined || query.to === undefined) return;
  const problem = rangeProblem(query.from, query.to, query.timezone);
  if (problem) ctx.addIssue({ code: 'custom', message: problem, path: ['to'] });
}

export const AnalyticsPerformanceQuery = z.object(performanceShape).superRefine(checkRange);
export type AnalyticsPerformanceQuery = z.infer<typeof AnalyticsPerformanceQuery>;

export const AnalyticsPerformanceTimeseriesQuery = z
  .object({
    ...performanceShape,
    bucket: AnalyticsBucket.default('day').meta({
      description: 'Calendar buckets in `timezone`; weeks start on Monday.',
    }),
  })
  .superRefine(checkRange);
export type AnalyticsPerformanceTimeseriesQuery = z.infer<typeof AnalyticsPerformanceTimeseriesQuery>;

const Count = z.int().min(0);

/**
 * Continuous percentiles (linear interpolation between the closest ranks, as PostgreSQL's `percentile_cont`)
 * in milliseconds: exact, or within the histogram bound (`meta.percentiles`).
 */
export const LatencyPercentiles = z
  .object({
    samples: Count.meta({ description: 'Completed jobs that recorded this span.' }),
    p50_ms: z.number().min(0),
    p90_ms: z.number().min(0),
    p99_ms: z.number().min(0),
  })
  .meta({ id: 'LatencyPercentiles' });
export type LatencyPercentiles = z.infer<typeof LatencyPercentiles>;

const figuresShape = {
  jobs: Count.meta({ description: 'Finished jobs: completed, failed and cancelled.' }),
  completed: Count,
  failed: Count,
  cancelled: Count,
  failure_rate: z.number().min(0).max(1).nullable().meta({
    description: 'failed / (completed + failed); cancelled jobs do not count. Null without either.',
  }),
  total: LatencyPercentiles.nullable().meta({
    description: 'Created to completed, over completed jobs; null when none completed.',
  }),
  phases: z
    .object({
      queued: LatencyPercentiles.nullable().meta({ description: 'Created to taken by a worker here.' }),
      provider_queue: LatencyPercentiles.nullable().meta({
        description: 'Accepted by the external provider to seen running there.',
      }),
      provider_run: LatencyPercentiles.nullable().meta({
        description: 'Seen running at the provider to seen done there.',
      }),
      downloading: LatencyPercentiles.nullable().meta({
        description: 'Done at the provider to completed here (downloading and storing the outputs).',
      }),
    })
    .meta({ description: 'Over completed jobs that recorded both ends of the phase; null when none did.' }),
};

/** The figures of a set of finished jobs (a model at a provider, a time bucket). */
export const PerformanceFigures = z.object(figuresShape).meta({ id: 'PerformanceFigures' });
export type PerformanceFigures = z.infer<typeof PerformanceFigures>;

export const AnalyticsPerformanceRow = z
  .object({
    model: z.string(),
    provider: z.string(),
    ...figuresShape,
    top_errors: z.array(z.object({ code: z.string(), count: Count.min(1) })).meta({
      description: `The ${PERFORMANCE_TOP_ERRORS} most frequent error codes of failed jobs, most first.`,
    }),
  })
  .meta({ id: 'AnalyticsPerformanceRow' });
export type AnalyticsPerformanceRow = z.infer<typeof AnalyticsPerformanceRow>;

const percentilesMethod = z.enum(['exact', 'histogram']).meta({
  description: `How the percentiles were computed: \`exact\` over the jobs (answers of up to ${PERFORMANCE_EXACT_MAX_JOBS.toLocaleString('en')} finished jobs, or filters the rollup does not keep: folder, key, member, creator, status, or a caller outside the team), or \`histogram\` from the rollup's log-scale histograms, within ${PERFORMANCE_HISTOGRAM_ERROR * 100}% of the exact value plus 0.5 ms. Counts, failure rates and error counts are exact either way.`,
});

export const AnalyticsPerformanceMeta = AnalyticsMeta.extend({ percentiles: percentilesMethod }).meta({
  id: 'AnalyticsPerformanceMeta',
});

export const AnalyticsPerformance = z
  .object({
    data: z
      .array(AnalyticsPerformanceRow)
      .meta({ description: 'One row per model and provider, most jobs first.' }),
    meta: AnalyticsPerformanceMeta,
  })
  .meta({ id: 'AnalyticsPerformance' });
export type AnalyticsPerformance = z.infer<typeof AnalyticsPerformance>;

export const PerformanceModelFigures = z
  .object({ model: z.string(), provider: z.string(), ...figuresShape })
  .meta({ id: 'PerformanceModelFigures' });
export type PerformanceModelFigures = z.infer<typeof PerformanceModelFigures>;

export const AnalyticsPerformanceBucket = z
  .object({
    start: z.iso.datetime().meta({ description: 'Bucket start (inclusive), ISO 8601 UTC instant.' }),
    end: z.iso.datetime().meta({ description: 'Bucket end (exclusive).' }),
    ...figuresShape,
    models: z.array(PerformanceModelFigures).meta({
      description:
        'The same figures per model and provider that had finished jobs in the bucket, most jobs first.',
    }),
  })
  .meta({ id: 'AnalyticsPerformanceBucket' });
export type AnalyticsPerformanceBucket = z.infer<typeof AnalyticsPerformanceBucket>;

export const AnalyticsPerformanceTimeseries = z
  .object({
    data: z
      .array(AnalyticsPerformanceBucket)
      .meta({ description: 'Every bucket of the range, oldest first.' }),
    meta: AnalyticsPerformanceMeta.extend({ bucket: AnalyticsBucket }),
  })
  .meta({ id: 'AnalyticsPerformanceTimeseries' });
export type AnalyticsPerformanceTimeseries = z.infer<typeof AnalyticsPerformanceTimeseries>;

export const getAnalyticsPerformance = defineEndpoint({
  operationId: 'getAnalyticsPerformance',
  method: 'GET',
  path: '/v2/analytics/performance',
  host: 'api',
  tag: 'Analytics',
  summary: 'Latency and failures per model',
  description:
    'Per model and provider: finished jobs, p50/p90/p99 of total time and of each phase, failure rate and the most frequent error codes. Jobs count by creation time; same range, time zone and filters as the spend endpoints.',
  auth: 'any',
  query: AnalyticsPerformanceQuery,
  responses: { 200: { description: 'The rows.', schema: AnalyticsPerformance } },
  errors: ['invalid_request', 'rate_limited'],
});

export const getAnalyticsPerformanceTimeseries = defineEndpoint({
  operationId: 'getAnalyticsPerformanceTimeseries',
  method: 'GET',
  path: '/v2/analytics/performance/timeseries',
  host: 'api',
  tag: 'Analytics',
  summary: 'Latency and failures over time',
  description:
    'The figures of `GET /v2/analytics/performance` per calendar bucket (hour, day, week or month in `timezone`): job counts, failure rate and p50/p90/p99 of total time and of each phase, overall and per model and provider.',
  auth: 'any',
  query: AnalyticsPerformanceTimeseriesQuery,
  responses: {
    200: { description: 'The series, oldest bucket first.', schema: AnalyticsPerformanceTimeseries },
  },
  errors: ['invalid_request', 'rate_limited'],
});
