import { createFileRoute } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { analyticsPerformanceQueryOptions, analyticsSummaryQueryOptions } from '../queries/analytics.ts';
import { AnalyticsPage } from './-components/analytics/analytics-page.tsx';
import { breakdownQueryOptions, whatChangedQueryOptions } from './-components/analytics/analytics-queries.ts';
import {
  AnalyticsSearch,
  browserTimeZone,
  comparisonOf,
  queryOf,
  type AnalyticsSearch as Search,
  viewOf,
} from './-components/analytics/analytics-search.ts';

/**
 * Spend and performance analytics (a tab each). The whole view (range, timezone, comparison, filters, chart choices) is in the URL,
 * so a link shares it; the page's widgets load on their own. The summary, the breakdown and "What
 * changed" start together in the loader: the comparison's days are the page's own, so nothing waits for
 * the summary to learn them.
 */
export const Route = createFileRoute('/_app/analytics')({
  validateSearch: AnalyticsSearch,
  loaderDeps: ({ search }) => search,
  loader: ({ context: { queryClient }, deps }) => {
    const view = viewOf(deps, new Date());
    void queryClient.prefetchQuery(analyticsSummaryQueryOptions(queryOf(view), comparisonOf(view)));
    if (view.tab === 'performance') {
      void queryClient.prefetchQuery(analyticsPerformanceQueryOptions(queryOf(view)));
      return;
    }
    void queryClient.prefetchQuery(breakdownQueryOptions(view));
    if (view.comparison) void queryClient.prefetchQuery(whatChangedQueryOptions(view));
  },
  component: AnalyticsRoute,
});

function AnalyticsRoute() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  // Presets resolve against the time the page opened, so the days do not shift while one reads them.
  const [now] = useState(() => new Date());
  const view = viewOf(search, now);

  // The browser's timezone goes into the URL, so a shared link shows the same days to its reader.
  useEffect(() => {
    if (!search.tz) void navigate({ search: (prev) => ({ ...prev, tz: browserTimeZone() }), replace: true });
  }, [search.tz, navigate]);

  const onChange = (patch: Partial<Search>) =>
    void navigate({ search: (prev) => ({ ...prev, tz: view.timezone, ...patch }) });
  return <AnalyticsPage view={view} onChange={onChange} />;
}
