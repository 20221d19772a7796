import { useQuery } from '@tanstack/react-query';
import type { AnalyticsBreakdown } from '../../../../contract/analytics.ts';
import { formatCredits } from '../../../format/credits.ts';
import {
  type AnalyticsQuery,
  analyticsBreakdownQueryOptions,
  LONG_BREAKDOWN_ROWS,
} from '../../../queries/analytics.ts';
import { type AnalyticsView, comparisonOf } from './analytics-search.ts';
import { rowValue } from './breakdown-panel.tsx';
import { breakdownCsv } from './csv.ts';
import { ExportButton } from './export-button.tsx';
import { FIGURE_TABLE_HEAD, FigureHeading } from './figure-table.tsx';
import { formatShare } from './format.ts';
import { JobsLink, withValue } from './open-jobs.tsx';
import { Panel, QueryState } from './panel.tsx';

const TOP = 5;

/** The top rows, the rest summed into one "Other" row, so the list still adds up to the total. */
export function topRows(breakdown: AnalyticsBreakdown, count = TOP): AnalyticsBreakdown {
  const rows = breakdown.data.filter((row) => !row.other);
  const kept = rows.slice(0, count);
  const rest = breakdown.data.filter((row) => !kept.includes(row));
  if (rest.length === 0) return { ...breakdown, data: kept };
  const sum = (pick: (row: AnalyticsBreakdown['data'][number]) => number) =>
    rest.reduce((total, row) => total + pick(row), 0);
  const other = {
    key: null,
    label: 'Other',
    other: true,
    spend_cents: sum((r) => r.spend_cents),
    charges: sum((r) => r.charges),
    jobs: sum((r) => r.jobs),
    runs: sum((r) => r.runs),
    unsuccessful_spend_cents: sum((r) => r.unsuccessful_spend_cents),
    unattributed_spend_cents: sum((r) => r.unattributed_spend_cents),
    share: Math.min(
      1,
      sum((r) => r.share),
    ),
    previous: null,
  };
  return { ...breakdown, data: [...kept, other] };
}

interface TopIdentitiesProps {
  query: AnalyticsQuery;
  view: AnalyticsView;
  range: { start: number; end: number };
  filename: string;
}

/** Top API keys and top people by spend (the same breakdowns "What changed" compares). */
export function TopIdentities(props: TopIdentitiesProps) {
  return (
    <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
      <TopList {...props} dimension="api_key" title="Top API keys" noun="keys" />
      <TopList {...props} dimension="member" title="Top people" noun="people" />
    </div>
  );
}

// Not a DataTable: an analytics figure table, frameless inside its card with right-aligned figures (figure-table.tsx).
function TopList({
  query,
  view,
  range,
  filename,
  dimension,
  title,
  noun,
}: TopIdentitiesProps & { dimension: 'api_key' | 'member'; title: string; noun: string }) {
  const result = useQuery({
    ...analyticsBreakdownQueryOptions(query, dimension, LONG_BREAKDOWN_ROWS, comparisonOf(view)),
    select: (data) => topRows(data),
  });
  return (
    <Panel
      title={title}
      actions={
        result.data &&
        result.data.data.length > 0 && (
          <ExportButton
            label={title.toLowerCase()}
            filename={filename}
            build={() => breakdownCsv(result.data)}
          />
        )
      }
    >
      <QueryState query={result} label={title.toLowerCase()}>
        {(top) =>
          top.data.length === 0 ? (
            <p className="text-sm text-zinc-600 dark:text-zinc-400">
              No spend by any of your {noun} in this range.
            </p>
          ) : (
            <table className="w-full text-left text-sm">
              <caption className="sr-only">{title}, by spend</caption>
              <thead className={FIGURE_TABLE_HEAD}>
                <tr>
                  <FigureHeading>{dimension === 'api_key' ? 'Key' : 'Person'}</FigureHeading>
                  <FigureHeading numeric>Spend</FigureHeading>
                  <FigureHeading numeric last>
                    Share
                  </FigureHeading>
                </tr>
              </thead>
              <tbody className="divide-y divide-zinc-100 dark:divide-zinc-800">
                {top.data.map((row) => (
                  <tr key={`${row.key}-${row.other}`}>
                    <th scope="row" className="max-w-56 truncate py-1.5 pr-4 font-normal">
                      <JobsLink filters={withValue(view.filters, dimension, rowValue(row))} {...range}>
                        {row.label}
                      </JobsLink>
                    </th>
                    <td className="py-1.5 pr-4 text-right tabular-nums">{formatCredits(row.spend_cents)}</td>
                    <td className="py-1.5 text-right tabular-nums">{formatShare(row.share)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )
        }
      </QueryState>
    </Panel>
  );
}
