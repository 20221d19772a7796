import { Bar, BarChart, CartesianGrid, Cell, Tooltip, XAxis, YAxis } from 'recharts';
import type { AnalyticsBreakdown } from '../../../../contract/analytics.ts';
import { Button } from '../../../components/button.tsx';
import { formatCredits, formatCreditsAndDollars } from '../../../format/credits.ts';
import { type AnalyticsView, type FilterName, type Filters, filterValues } from './analytics-search.ts';
import { chartColors, useIsDark } from './chart-theme.ts';
import { ChartTooltip } from './chart-tooltip.tsx';
import { FIGURE_TABLE_HEAD, FigureHeading } from './figure-table.tsx';
import { formatChangeRatio, formatCount, formatShare } from './format.ts';
import { rowLabel } from './labels.ts';
import { JobsLink, useOpenJobs, withValue } from './open-jobs.tsx';

type Row = AnalyticsBreakdown['data'][number];

/** The filter value of a row: its key, `none` for runs without one, null for the "other" row. */
export function rowValue(row: Row): string | null {
  if (row.other) return null;
  return row.key ?? 'none';
}

interface BreakdownProps {
  breakdown: AnalyticsBreakdown;
  view: AnalyticsView;
  range: { start: number; end: number };
  onFilter: (name: FilterName, value: string) => void;
}

/** Spend by the chosen dimension as horizontal bars; a click on a bar opens those jobs. */
export function BreakdownChart({ breakdown, view, range }: Omit<BreakdownProps, 'onFilter'>) {
  const colors = chartColors(useIsDark());
  const openJobs = useOpenJobs();
  const dimension = breakdown.meta.dimension;
  const rows = breakdown.data
    .filter((row) => row.spend_cents !== 0)
    .slice(0, 12)
    .map((row) => ({ ...row, label: rowLabel(dimension, row) }));
  if (rows.length === 0) return null;
  return (
    <BarChart
      responsive
      layout="vertical"
      style={{ width: '100%', height: Math.max(120, rows.length * 32 + 24) }}
      data={rows}
      accessibilityLayer
      margin={{ top: 0, right: 16, bottom: 0, left: 8 }}
    >
      <CartesianGrid horizontal={false} stroke={colors.grid} />
      <XAxis type="number" tick={{ fill: colors.axis, fontSize: 12 }} stroke={colors.grid} hide />
      <YAxis
        type="category"
        dataKey="label"
        width={140}
        tick={{ fill: colors.axis, fontSize: 12 }}
        stroke={colors.grid}
        tickFormatter={(label: string) => (label.length > 20 ? `${label.slice(0, 19)}…` : label)}
      />
      <Tooltip
        cursor={{ fill: colors.cursor }}
        content={({ active, payload, label }) => (
          <ChartTooltip
            active={active}
            payload={payload}
            title={label === undefined ? undefined : String(label)}
          />
        )}
      />
      <Bar
        dataKey="spend_cents"
        name="Spend"
        maxBarSize={28}
        cursor="pointer"
        isAnimationActive={false}
        onClick={(_, at) => {
          const row = rows[at];
          if (row) openJobs(withValue(view.filters, dimension, rowValue(row)), range.start, range.end);
        }}
      >
        {rows.map((row, index) => (
          <Cell key={`${row.key}-${row.other}`} fill={row.other ? colors.other : colors.series(index)} />
        ))}
      </Bar>
    </BarChart>
  );
}

/**
 * Every row of the breakdown: a link to its jobs, its figures, and a button that filters the page by it.
 * Not a DataTable: an analytics figure table, frameless inside its card with right-aligned figures (figure-table.tsx).
 */
export function BreakdownTable({ breakdown, view, range, onFilter }: BreakdownProps) {
  const openJobs = useOpenJobs();
  const dimension = breakdown.meta.dimension;
  const compared = breakdown.data.some((row) => row.previous !== null);
  const total = breakdown.data.reduce((sum, row) => sum + row.spend_cents, 0);
  const cell = 'py-1.5 pr-4 text-right tabular-nums';
  return (
    <div className="relative overflow-x-auto">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Spend by {dimension}, in credits</caption>
        <thead className={FIGURE_TABLE_HEAD}>
          <tr>
            <FigureHeading>Value</FigureHeading>
            <FigureHeading numeric>Spend</FigureHeading>
            <FigureHeading numeric>Share</FigureHeading>
            {compared && <FigureHeading numeric>Change</FigureHeading>}
            <FigureHeading numeric>Charges</FigureHeading>
            <FigureHeading numeric>Jobs</FigureHeading>
            <FigureHeading numeric>Runs</FigureHeading>
            <FigureHeading last>
              <span className="sr-only">Filter</span>
            </FigureHeading>
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-100 dark:divide-zinc-800">
          {breakdown.data.map((row) => {
            const value = rowValue(row);
            const label = rowLabel(dimension, row);
            const rowFilters: Filters = withValue(view.filters, dimension, value);
            const filtered = value !== null && filterValues(view.filters, dimension).includes(value);
            const previous = row.previous?.spend_cents ?? null;
            return (
              <tr
                key={`${row.key}-${row.other}`}
                className="cursor-pointer hover:bg-zinc-50 dark:hover:bg-zinc-800/50"
                onClick={(event) => {
                  if ((event.target as HTMLElement).closest('a,button')) return;
                  openJobs(rowFilters, range.start, range.end);
                }}
              >
                <th scope="row" className="max-w-64 truncate py-1.5 pr-4 font-normal">
                  <JobsLink filters={rowFilters} start={range.start} end={range.end}>
                    {label}
                  </JobsLink>
                </th>
                <td className={cell}>{formatCredits(row.spend_cents)}</td>
                <td className={cell}>{formatShare(row.share)}</td>
                {compared && (
                  <td className={cell}>
                    {previous === null
                      ? '—'
                      : `${row.spend_cents - previous >= 0 ? '+' : '−'}${formatCount(Math.abs(row.spend_cents - previous))}${
                          previous > 0
                            ? ` (${formatChangeRatio((row.spend_cents - previous) / previous)})`
                            : ''
                        }`}
                  </td>
                )}
                <td className={cell}>{formatCount(row.charges)}</td>
                <td className={cell}>{formatCount(row.jobs)}</td>
                <td className={cell}>{formatCount(row.runs)}</td>
                <td className="py-1 text-right">
                  {value !== null && !filtered && (
                    <Button
                      variant="ghost"
                      size="sm"
                      aria-label={`Filter by ${label}`}
                      onClick={() => onFilter(dimension, value)}
                    >
                      Filter
                    </Button>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
        <tfoot className="border-t border-zinc-200 font-medium dark:border-zinc-700">
          <tr>
            <th scope="row" className="py-2 pr-4 text-left">
              Total
            </th>
            <td className={cell}>{formatCreditsAndDollars(total)}</td>
            <td className={cell} />
            {compared && <td className={cell} />}
            <td className={cell}>{formatCount(breakdown.data.reduce((sum, row) => sum + row.charges, 0))}</td>
            <td className={cell}>{formatCount(breakdown.data.reduce((sum, row) => sum + row.jobs, 0))}</td>
            <td className={cell}>{formatCount(breakdown.data.reduce((sum, row) => sum + row.runs, 0))}</td>
            <td />
          </tr>
        </tfoot>
      </table>
    </div>
  );
}
