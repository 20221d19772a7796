import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type {
  AnalyticsPerformanceRow,
  LatencyPercentiles,
} from '../../../../contract/analytics-performance.ts';
import { EmptyState } from '../../../components/empty-state.tsx';
import { formatDuration } from '../../../format/duration.ts';
import { jobErrorWords } from '../../../format/job-error.ts';
import { pluralize } from '../../../format/words.ts';
import { analyticsPerformanceQueryOptions } from '../../../queries/analytics.ts';
import { type AnalyticsView, queryOf } from './analytics-search.ts';
import { FIGURE_TABLE_HEAD, FigureHeading } from './figure-table.tsx';
import { JobsLink } from './open-jobs.tsx';
import { Panel, QueryState } from './panel.tsx';

interface PerformancePanelProps {
  view: AnalyticsView;
  /** The range the view resolves to, as instants (for links to the job feed). */
  range: { start: number; end: number };
}

/** "18 s · 25 s · 41 s": the median, p90 and p99 of one span, or a dash where nothing was measured. */
function percentilesText(span: LatencyPercentiles | null): string {
  if (!span) return '—';
  return [span.p50_ms, span.p90_ms, span.p99_ms].map(formatDuration).join(' · ');
}

function failureRateText(row: AnalyticsPerformanceRow): string {
  if (row.failure_rate === null) return '—';
  return new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 1 }).format(
    row.failure_rate,
  );
}

/**
 * How fast and how reliable each model was on this server in the view's range and filters: time from
 * request to result (median, p90, p99), its phases, the share of runs that failed, and the most frequent
 * errors, each a link to the failed jobs of that model in the feed.
 * Not a DataTable: an analytics figure table, frameless inside its card with right-aligned figures (figure-table.tsx).
 */
export function PerformancePanel({ view, range }: PerformancePanelProps) {
  const performance = useQuery({
    ...analyticsPerformanceQueryOptions(queryOf(view)),
    placeholderData: keepPreviousData,
  });
  return (
    <Panel
      title="Speed and failures by model"
      description="Times are median · 90th · 99th percentile of finished runs started in the range. Failure rate counts failed runs against completed and failed ones (cancelled runs count neither way)."
    >
      <QueryState query={performance} label="speed and failures">
        {(loaded) =>
          loaded.data.length === 0 ? (
            <EmptyState title="No finished runs in this range">
              Speed and failures appear once runs finish. Try a longer range or fewer filters.
            </EmptyState>
          ) : (
            <div className="relative overflow-x-auto">
              <table className="w-full text-left text-sm">
                <caption className="sr-only">
                  Speed and failures by model and provider, times as median, 90th and 99th percentile
                </caption>
                <thead className={FIGURE_TABLE_HEAD}>
                  <tr>
                    <FigureHeading>Model</FigureHeading>
                    <FigureHeading numeric>Runs</FigureHeading>
                    <FigureHeading numeric>Failure rate</FigureHeading>
                    <FigureHeading numeric>Total time</FigureHeading>
                    <FigureHeading numeric>Waiting here</FigureHeading>
                    <FigureHeading numeric>Queued at provider</FigureHeading>
                    <FigureHeading numeric>Running at provider</FigureHeading>
                    <FigureHeading last>Most frequent errors</FigureHeading>
                  </tr>
                </thead>
                <tbody className="divide-y divide-zinc-100 dark:divide-zinc-800">
                  {loaded.data.map((row) => (
                    <PerformanceRow
                      key={`${row.model}/${row.provider}`}
                      row={row}
                      view={view}
                      range={range}
                    />
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </QueryState>
    </Panel>
  );
}

function PerformanceRow({
  row,
  view,
  range,
}: { row: AnalyticsPerformanceRow } & Pick<PerformancePanelProps, 'view' | 'range'>) {
  const failedJobs = { ...view.filters, model: row.model, status: 'failed' };
  const figure = 'py-2 pr-4 text-right tabular-nums whitespace-nowrap text-zinc-900 dark:text-zinc-100';
  return (
    <tr>
      <th scope="row" className="py-2 pr-4 font-medium text-zinc-900 dark:text-zinc-100">
        {row.model}
        <span className="block text-xs font-normal text-zinc-600 dark:text-zinc-400">at {row.provider}</span>
      </th>
      <td className={figure}>{row.jobs.toLocaleString()}</td>
      <td className={figure}>{failureRateText(row)}</td>
      <td className={figure}>{percentilesText(row.total)}</td>
      <td className={figure}>{percentilesText(row.phases.queued)}</td>
      <td className={figure}>{percentilesText(row.phases.provider_queue)}</td>
      <td className={figure}>{percentilesText(row.phases.provider_run)}</td>
      <td className="py-2 text-zinc-700 dark:text-zinc-300">
        {row.top_errors.length === 0 ? (
          <span className="text-zinc-600 dark:text-zinc-400">None</span>
        ) : (
          <ul className="flex flex-col gap-1">
            {row.top_errors.map((error) => (
              <li key={error.code}>
                <JobsLink
                  filters={failedJobs}
                  feed={{ error: error.code }}
                  start={range.start}
                  end={range.end}
                >
                  {jobErrorWords({ code: error.code, message: '' }).title}
                </JobsLink>{' '}
                <span className="text-zinc-600 dark:text-zinc-400">
                  ({pluralize(error.count, 'run', 'runs')})
                </span>
              </li>
            ))}
          </ul>
        )}
      </td>
    </tr>
  );
}
