import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { CartesianGrid, Line, LineChart, Tooltip, XAxis, YAxis } from 'recharts';
import { cx } from '../../../components/cx.ts';
import { EmptyState } from '../../../components/empty-state.tsx';
import { formatDuration } from '../../../format/duration.ts';
import { analyticsPerformanceTimeseriesQueryOptions } from '../../../queries/analytics.ts';
import { type AnalyticsView, queryOf } from './analytics-search.ts';
import { chartColors, useIsDark } from './chart-theme.ts';
import { ChartTooltip } from './chart-tooltip.tsx';
import { FIGURE_TABLE_HEAD, FigureHeading } from './figure-table.tsx';
import { formatBucket, formatCount, formatShare } from './format.ts';
import { Panel, QueryState, ViewToggle } from './panel.tsx';
import {
  type LatencySeries,
  type Percentile,
  type PerformancePoint,
  performancePoints,
} from './performance-series.ts';

const PERCENTILE_WORDS: Record<Percentile, string> = {
  p50: 'median',
  p90: '90th percentile',
  p99: '99th percentile',
};

/**
 * Total time per bucket of the busiest models (median, p90 or p99) and the failure rate of every finished
 * run, with the page's range, filters and bucket. A table holds the same numbers for those who cannot
 * read the chart.
 */
export function PerformanceOverTime({ view }: { view: AnalyticsView }) {
  const [asTable, setAsTable] = useState(false);
  const [percentile, setPercentile] = useState<Percentile>('p50');
  const timeseries = useQuery({
    ...analyticsPerformanceTimeseriesQueryOptions(queryOf(view), view.bucket),
    placeholderData: keepPreviousData,
  });
  return (
    <Panel
      title="Speed and failures over time"
      description={`Per ${view.bucket} in ${view.timezone}: the ${PERCENTILE_WORDS[percentile]} of total time of the busiest models, and the share of runs that failed.`}
      actions={
        <>
          <PercentileSwitch value={percentile} onChange={setPercentile} />
          <ViewToggle asTable={asTable} onChange={setAsTable} label="speed over time" />
        </>
      }
    >
      <QueryState query={timeseries} label="speed over time">
        {(loaded) => {
          const { series, points } = performancePoints(loaded, percentile, (start) =>
            formatBucket(start, loaded.meta.bucket, view.timezone),
          );
          if (points.every((point) => point.jobs === 0)) {
            return (
              <EmptyState title="No finished runs over time">
                Times and failures per {view.bucket} appear once runs finish in this range.
              </EmptyState>
            );
          }
          return asTable ? (
            <PerformanceTable series={series} points={points} percentile={percentile} />
          ) : (
            <PerformanceCharts series={series} points={points} />
          );
        }}
      </QueryState>
    </Panel>
  );
}

function PercentileSwitch({ value, onChange }: { value: Percentile; onChange: (p: Percentile) => void }) {
  return (
    <fieldset className="inline-flex rounded-lg ring-1 ring-zinc-300 ring-inset dark:ring-zinc-700">
      <legend className="sr-only">Percentile of total time</legend>
      {(['p50', 'p90', 'p99'] as const).map((option) => (
        <label
          key={option}
          className={cx(
            'inline-flex h-8 cursor-pointer items-center px-3 text-sm first:rounded-l-lg last:rounded-r-lg',
            'has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-indigo-600',
            value === option
              ? 'bg-zinc-900 text-white dark:bg-zinc-100 dark:text-zinc-900'
              : 'text-zinc-700 hover:bg-zinc-50 dark:text-zinc-300 dark:hover:bg-zinc-800',
          )}
        >
          <input
            type="radio"
            name="performance-percentile"
            className="sr-only"
            value={option}
            checked={value === option}
            onChange={() => onChange(option)}
          />
          <span aria-hidden="true">{option}</span>
          <span className="sr-only">{PERCENTILE_WORDS[option]}</span>
        </label>
      ))}
    </fieldset>
  );
}

interface SeriesProps {
  series: LatencySeries[];
  points: PerformancePoint[];
}

function PerformanceCharts({ series, points }: SeriesProps) {
  const colors = chartColors(useIsDark());
  const axis = { tick: { fill: colors.axis, fontSize: 12 }, stroke: colors.grid };
  const tooltip = (format: (value: number) => string) => (
    <Tooltip
      cursor={{ stroke: colors.grid }}
      content={({ active, payload, label }) => (
        <ChartTooltip
          active={active}
          payload={payload}
          title={label === undefined ? undefined : String(label)}
          format={format}
        />
      )}
    />
  );
  return (
    <div className="flex flex-col gap-4">
      <LineChart
        responsive
        style={{ width: '100%', height: 240 }}
        data={points}
        accessibilityLayer
        margin={{ top: 8, right: 8, bottom: 0, left: 8 }}
      >
        <CartesianGrid vertical={false} stroke={colors.grid} />
        <XAxis dataKey="label" minTickGap={16} {...axis} />
        <YAxis tickFormatter={(value: number) => formatDuration(value)} width={64} {...axis} />
        {tooltip(formatDuration)}
        {series.map((line, index) => (
          <Line
            key={line.id}
            name={line.label}
            dataKey={(point: PerformancePoint) => point.latency[line.id]}
            stroke={colors.series(index)}
            strokeWidth={2}
            dot={false}
            isAnimationActive={false}
          />
        ))}
      </LineChart>
      <div>
        <h3 className="mb-1 text-sm font-medium text-zinc-700 dark:text-zinc-300">Failure rate</h3>
        <LineChart
          responsive
          style={{ width: '100%', height: 128 }}
          data={points}
          accessibilityLayer
          margin={{ top: 8, right: 8, bottom: 0, left: 8 }}
        >
          <CartesianGrid vertical={false} stroke={colors.grid} />
          <XAxis dataKey="label" minTickGap={16} {...axis} />
          <YAxis
            tickFormatter={(value: number) => formatShare(value)}
            width={64}
            domain={[0, 'auto']}
            {...axis}
          />
          {tooltip(formatShare)}
          <Line
            name="Failure rate"
            dataKey="failure_rate"
            stroke={colors.series(4)}
            strokeWidth={2}
            dot={false}
            isAnimationActive={false}
          />
        </LineChart>
      </div>
    </div>
  );
}

function PerformanceTable({ series, points, percentile }: SeriesProps & { percentile: Percentile }) {
  const figure = 'py-2 pr-4 text-right tabular-nums whitespace-nowrap text-zinc-900 dark:text-zinc-100';
  return (
    <div className="relative overflow-x-auto">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">
          Finished runs, failure rate and the {PERCENTILE_WORDS[percentile]} of total time per model, by
          bucket
        </caption>
        <thead className={FIGURE_TABLE_HEAD}>
          <tr>
            <FigureHeading>Period</FigureHeading>
            <FigureHeading numeric>Runs</FigureHeading>
            <FigureHeading numeric>Failure rate</FigureHeading>
            {series.map((line, index) => (
              <FigureHeading key={line.id} numeric last={index === series.length - 1}>
                {line.label}
              </FigureHeading>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-100 dark:divide-zinc-800">
          {points.map((point) => (
            <tr key={point.start}>
              <th scope="row" className="py-2 pr-4 font-medium text-zinc-900 dark:text-zinc-100">
                {point.label}
              </th>
              <td className={figure}>{formatCount(point.jobs)}</td>
              <td className={figure}>
                {point.failure_rate === null ? '—' : formatShare(point.failure_rate)}
              </td>
              {series.map((line) => {
                const ms = point.latency[line.id];
                return (
                  <td key={line.id} className={figure}>
                    {ms === undefined ? '—' : formatDuration(ms)}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
