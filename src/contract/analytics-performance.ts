import { z } from 'zod';
import {
  ANALYTICS_DEFAULT_TIMEZONE,
  AnalyticsBound,
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

export const AnalyticsPerformanceQuery = z
  .object({
    from: AnalyticsBound.optional().meta({
      description: 'Range start, inclusive. Default: `to` minus 30 days.',
    }),
    to: AnalyticsBound.optional().meta({ description: 'Range end, exclusive. Default: now.' }),
    timezone: AnalyticsTimeZone.default(ANALYTICS_DEFAULT_TIMEZONE).meta({
      description: 'IANA time zone for date-only bounds. Default `UTC`.',
    }),
    ...analyticsFilters,
  })
  .superRefine((query, ctx) => {
    if (query.from === undefined || query.to === undefined) return;
    const problem = rangeProblem(query.from, query.to, query.timezone);
    if (problem) ctx.addIssue({ code: 'custom', message: problem, path: ['to'] });
  });
export type AnalyticsPerformanceQuery = z.infer<typeof AnalyticsPerformanceQuery>;

const Count = z.int().min(0);

/** Continuous percentiles (PostgreSQL `percentile_cont`, linear interpolation) in milliseconds. */
export const LatencyPercentiles = z
  .object({
    samples: Count.meta({ description: 'Completed jobs that recorded this span.' }),
    p50_ms: z.number().min(0),
    p90_ms: z.number().min(0),
    p99_ms: z.number().min(0),
  })
  .meta({ id: 'LatencyPercentiles' });
export type LatencyPercentiles = z.infer<typeof LatencyPercentiles>;

export const AnalyticsPerformanceRow = z
  .object({
    model: z.string(),
    provider: z.string(),
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
    top_errors: z.array(z.object({ code: z.string(), count: Count.min(1) })).meta({
      description: `The ${PERFORMANCE_TOP_ERRORS} most frequent error codes of failed jobs, most first.`,
    }),
  })
  .meta({ id: 'AnalyticsPerformanceRow' });
export type AnalyticsPerformanceRow = z.infer<typeof AnalyticsPerformanceRow>;

export const AnalyticsPerformance = z
  .object({
    data: z
      .array(AnalyticsPerformanceRow)
      .meta({ description: 'One row per model and provider, most jobs first.' }),
    meta: AnalyticsMeta,
  })
  .meta({ id: 'AnalyticsPerformance' });
export type AnalyticsPerformance = z.infer<typeof AnalyticsPerformance>;

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
