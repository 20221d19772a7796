import type { Context } from 'hono';
import {
  getAnalyticsActivity,
  getAnalyticsBreakdown,
  getAnalyticsSummary,
  getAnalyticsTimeseries,
} from '../../../contract/analytics.ts';
import {
  getAnalyticsPerformance,
  getAnalyticsPerformanceTimeseries,
} from '../../../contract/analytics-performance.ts';
import { analyticsActivity } from '../../domain/analytics/activity.ts';
import { analyticsBreakdown } from '../../domain/analytics/breakdown.ts';
import {
  activityCsv,
  breakdownCsv,
  performanceCsv,
  performanceTimeseriesCsv,
  summaryCsv,
  timeseriesCsv,
} from '../../domain/analytics/csv.ts';
import type { Viewer } from '../../domain/analytics/filters.ts';
import { analyticsPerformance, analyticsPerformanceTimeseries } from '../../domain/analytics/performance.ts';
import { analyticsSummary } from '../../domain/analytics/summary.ts';
import { analyticsTimeseries } from '../../domain/analytics/timeseries.ts';
import type { AuthContext } from '../../domain/identity/auth-context.ts';
import type { Services } from '../../services.ts';
import { defineRoute } from '../define-route.ts';
import { requestHeader } from '../request-header.ts';
import { respond } from '../respond.ts';

/** Members of the team see every identity; anyone else (a key shared with them) only their own. */
function viewerOf(auth: AuthContext): Viewer {
  return {
    teamId: auth.teamId,
    scope: auth.role === null ? 'self' : 'full',
    personId: auth.personId,
    role: auth.role,
    // The caller's own identities: the key it calls with, and the keys shared with it (a non-member).
    apiKeyIds: [...(auth.apiKeyId ? [auth.apiKeyId] : []), ...auth.sharedKeyIds],
  };
}

/** CSV when `format=csv`, or when `Accept` asks for text/csv and `format` does not say json. */
function wantsCsv(c: Context, format: 'json' | 'csv' | undefined): boolean {
  if (format) return format === 'csv';
  return /\btext\/csv\b/i.test(requestHeader(c, 'accept') ?? '');
}

function csvResponse(c: Context, name: string, from: string, to: string, body: string): Response {
  const day = (iso: string) => iso.slice(0, 10);
  return respond(c as never, 200, body, {
    'content-type': 'text/csv; charset=utf-8',
    'content-disposition': `attachment; filename="analytics-${name}-${day(from)}-${day(to)}.csv"`,
    'cache-control': 'no-store',
  });
}

/** Spend analytics over the credit ledger (summary, time series, breakdown, activity), and performance over jobs. */
export function analyticsRoutes(s: Services) {
  return [
    defineRoute(getAnalyticsSummary, async ({ auth, query, c }) => {
      const answer = await analyticsSummary(s.db, viewerOf(auth), query);
      if (!wantsCsv(c, query.format)) return answer;
      return csvResponse(c, 'summary', answer.meta.from, answer.meta.to, summaryCsv(answer));
    }),
    defineRoute(getAnalyticsTimeseries, async ({ auth, query, c }) => {
      const answer = await analyticsTimeseries(s.db, viewerOf(auth), query);
      if (!wantsCsv(c, query.format)) return answer;
      return csvResponse(c, 'timeseries', answer.meta.from, answer.meta.to, timeseriesCsv(answer));
    }),
    defineRoute(getAnalyticsBreakdown, async ({ auth, query, c }) => {
      const answer = await analyticsBreakdown(s.db, viewerOf(auth), query);
      if (!wantsCsv(c, query.format)) return answer;
      return csvResponse(
        c,
        `breakdown-${query.dimension}`,
        answer.meta.from,
        answer.meta.to,
        breakdownCsv(answer),
      );
    }),
    defineRoute(getAnalyticsActivity, async ({ auth, query, c }) => {
      const answer = await analyticsActivity(s.db, viewerOf(auth), query);
      if (!wantsCsv(c, query.format)) return answer;
      const response = csvResponse(c, 'activity', answer.meta.from, answer.meta.to, activityCsv(answer));
      if (answer.meta.next_cursor) response.headers.set('x-next-cursor', answer.meta.next_cursor);
      return response;
    }),
    defineRoute(getAnalyticsPerformance, async ({ auth, query, c }) => {
      const answer = await analyticsPerformance(s.db, viewerOf(auth), query);
      if (!wantsCsv(c, query.format)) return answer;
      return csvResponse(c, 'performance', answer.meta.from, answer.meta.to, performanceCsv(answer));
    }),
    defineRoute(getAnalyticsPerformanceTimeseries, async ({ auth, query, c }) => {
      const answer = await analyticsPerformanceTimeseries(s.db, viewerOf(auth), query);
      if (!wantsCsv(c, query.format)) return answer;
      const body = performanceTimeseriesCsv(answer);
      return csvResponse(c, 'performance-timeseries', answer.meta.from, answer.meta.to, body);
    }),
  ];
}
