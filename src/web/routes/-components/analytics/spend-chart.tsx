import { useQuery } from '@tanstack/react-query';
import { Bar, BarChart, CartesianGrid, ReferenceLine, Tooltip, XAxis, YAxis } from 'recharts';
import { OTHER_SERIES, type StackedSeries, type StackSeries } from '../../../queries/analytics.ts';
import { budgetsQueryOptions } from '../../../queries/budgets.ts';
import type { AnalyticsView } from './analytics-search.ts';
import { budgetLines } from './budget-lines.ts';
import { chartColors, useIsDark } from './chart-theme.ts';
import { ChartTooltip } from './chart-tooltip.tsx';
import { FIGURE_TABLE_HEAD, FigureHeading } from './figure-table.tsx';
import { formatBucket, formatCount } from './format.ts';
import { rowLabel } from './labels.ts';
import { JobsLink, useOpenJobs, withValue } from './open-jobs.tsx';

interface SpendChartProps {
  stacked: StackedSeries;
  view: AnalyticsView;
  asTable: boolean;
}

const compact = new Intl.NumberFormat('en-US', { notation: 'compact' });

/** Spend per bucket, stacked by tool or model; a click on a segment opens those jobs in the feed. */
export function SpendChart({ stacked: raw, view, asTable }: SpendChartProps) {
  const stacked = {
    ...raw,
    series: raw.series.map((series) => ({ ...series, label: seriesLabel(view, series) })),
  };
  const dark = useIsDark();
  const colors = chartColors(dark);
  const openJobs = useOpenJobs();
  const bucket = stacked.meta.bucket;
  const rows = stacked.buckets.map((b) => ({
    ...b,
    label: formatBucket(b.start, bucket, view.timezone),
  }));
  const colorOf = (id: string, index: number) => (id === OTHER_SERIES ? colors.other : colors.series(index));
  // Budgets are a reference, not the figure: without them (still loading, or refused) the chart stands.
  const budgets = useQuery(budgetsQueryOptions());
  const lines = budgetLines(budgets.data?.data ?? [], bucket, view.filters);

  if (asTable) return <SpendTable stacked={stacked} view={view} />;
  return (
    <div>
      <BarChart
        responsive
        style={{ width: '100%', height: 288 }}
        data={rows}
        accessibilityLayer
        margin={{ top: 8, right: 8, bottom: 0, left: 8 }}
      >
        <CartesianGrid vertical={false} stroke={colors.grid} />
        <XAxis
          dataKey="label"
          tick={{ fill: colors.axis, fontSize: 12 }}
          stroke={colors.grid}
          minTickGap={16}
        />
        {/* Spend is whole credits: no 0.25-credit ticks under a 1-credit day. */}
        <YAxis
          allowDecimals={false}
          tick={{ fill: colors.axis, fontSize: 12 }}
          stroke={colors.grid}
          tickFormatter={(value: number) => compact.format(value)}
          width={48}
        />
        <Tooltip
          cursor={{ fill: colors.cursor }}
          content={({ active, payload, label }) => (
            <ChartTooltip
              active={active}
              payload={payload}
              title={label === undefined ? undefined : String(label)}
              total={rows.find((row) => row.label === label)?.total}
            />
          )}
        />
        {stacked.series.map((series, index) => (
          <Bar
            key={series.id}
            name={series.label}
            dataKey={(row: (typeof rows)[number]) => row.spend[series.id] ?? 0}
            stackId="spend"
            fill={colorOf(series.id, index)}
            cursor="pointer"
            isAnimationActive={false}
            onClick={(_, at) => {
              const row = rows[at];
              if (!row) return;
              openJobs(
                withValue(view.filters, view.stack, series.value),
                Date.parse(row.start),
                Date.parse(row.end),
              );
            }}
          />
        ))}
        {lines.map((line) => (
          <ReferenceLine
            key={line.id}
            y={line.credits}
            stroke={dark ? '#f87171' : '#dc2626'}
            strokeDasharray="6 4"
            ifOverflow="extendDomain"
            label={{ value: line.label, position: 'insideTopRight', fill: colors.axis, fontSize: 12 }}
          />
        ))}
      </BarChart>
      {lines.length > 0 && (
        <p className="mt-2 text-xs text-zinc-600 dark:text-zinc-400">
          Dashed lines: {lines.map((line) => `${line.label.toLowerCase()} credits per ${bucket}`).join(', ')}.
        </p>
      )}
      <ul
        className="mt-3 flex flex-wrap gap-x-4 gap-y-1 text-xs text-zinc-700 dark:text-zinc-300"
        aria-label="Legend"
      >
        {stacked.series.map((series, index) => (
          <li key={series.id} className="flex items-center gap-1.5">
            <span
              aria-hidden="true"
              className="size-2.5 rounded-sm"
              style={{ background: colorOf(series.id, index) }}
            />
            {series.label}
          </li>
        ))}
      </ul>
      <p className="mt-2 text-xs text-zinc-600 dark:text-zinc-400">
        Click a bar to open its jobs; with the chart focused, the arrow keys move between buckets.
      </p>
    </div>
  );
}

/**
 * The same numbers as the chart, with a link to each bucket's jobs.
 * Not a DataTable: an analytics figure table, frameless inside its card with right-aligned figures (figure-table.tsx).
 */
function SpendTable({ stacked, view }: { stacked: StackedSeries; view: AnalyticsView }) {
  const bucket = stacked.meta.bucket;
  return (
    <div className="relative overflow-x-auto">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Spend per {bucket}, in credits</caption>
        <thead className={FIGURE_TABLE_HEAD}>
          <tr>
            <FigureHeading>
              {bucket[0]?.toUpperCase()}
              {bucket.slice(1)}
            </FigureHeading>
            {stacked.series.map((series) => (
              <FigureHeading key={series.id} numeric>
                {series.label}
              </FigureHeading>
            ))}
            <FigureHeading numeric>Total</FigureHeading>
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-100 dark:divide-zinc-800">
          {stacked.buckets.map((b) => (
            <tr key={b.start}>
              <th scope="row" className="py-1.5 pr-4 font-normal">
                <JobsLink filters={view.filters} start={Date.parse(b.start)} end={Date.parse(b.end)}>
                  {formatBucket(b.start, bucket, view.timezone)}
                </JobsLink>
              </th>
              {stacked.series.map((series) => (
                <td key={series.id} className="py-1.5 pr-4 text-right tabular-nums">
                  {formatCount(b.spend[series.id] ?? 0)}
                </td>
              ))}
              <td className="py-1.5 pr-4 text-right font-medium tabular-nums">{formatCount(b.total)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The series named as the page names them (tools by their names), for the chart, its table and its CSV. */
export function labelSeries(stacked: StackedSeries, view: AnalyticsView): StackedSeries {
  return {
    ...stacked,
    series: stacked.series.map((series) => ({ ...series, label: seriesLabel(view, series) })),
  };
}

function seriesLabel(view: AnalyticsView, series: StackSeries): string {
  if (series.value === null) return series.label;
  return rowLabel(view.stack, {
    key: series.value === 'none' ? null : series.value,
    label: series.label,
    other: false,
  });
}
