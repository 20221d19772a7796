import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { AnalyticsBreakdown, AnalyticsDimension } from '../../../../contract/analytics.ts';
import { ANALYTICS_DIMENSIONS } from '../../../../contract/values.ts';
import { Alert } from '../../../components/alert.tsx';
import { cx } from '../../../components/cx.ts';
import { EmptyState } from '../../../components/empty-state.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { analyticsSeriesQueryOptions, analyticsSummaryQueryOptions } from '../../../queries/analytics.ts';
import { breakdownQueryOptions } from './analytics-queries.ts';
import {
  type AnalyticsSearch,
  type AnalyticsView,
  comparisonOf,
  type FilterName,
  queryOf,
  type Stack,
  toggleFilterValue,
} from './analytics-search.ts';
import { AnalyticsTabs, tabId, tabPanelId } from './analytics-tabs.tsx';
import { BreakdownChart, BreakdownTable } from './breakdown-panel.tsx';
import { breakdownCsv, exportFilename, seriesCsv, summaryCsv } from './csv.ts';
import { ExportButton } from './export-button.tsx';
import { FilterBar } from './filter-bar.tsx';
import { periodsOf } from './format.ts';
import { instantOf } from './job-feed-link.ts';
import { DIMENSION_LABELS } from './labels.ts';
import { Panel, QueryState, ViewToggle } from './panel.tsx';
import { PerformanceOverTime } from './performance-chart.tsx';
import { PerformancePanel } from './performance-panel.tsx';
import { RangeControls } from './range-controls.tsx';
import { labelSeries, SpendChart } from './spend-chart.tsx';
import { SummaryCards } from './summary-cards.tsx';
import { TopIdentities } from './top-identities.tsx';
import { WhatChangedPanel } from './what-changed-panel.tsx';

interface AnalyticsPageProps {
  view: AnalyticsView;
  onChange: (patch: Partial<AnalyticsSearch>) => void;
}

/**
 * Spend for finance: figures with their change, spend over time, a breakdown, what changed, and the top
 * keys and people, all for the range, timezone and filters in the URL. Each widget loads and fails on
 * its own; while a new view loads, the last one stays on screen, dimmed.
 */
export function AnalyticsPage({ view, onChange }: AnalyticsPageProps) {
  const query = queryOf(view);
  const summary = useQuery({
    ...analyticsSummaryQueryOptions(query, comparisonOf(view)),
    placeholderData: keepPreviousData,
  });
  const range = {
    start: summary.data ? Date.parse(summary.data.meta.from) : instantOf(view.from, view.timezone),
    end: summary.data ? Date.parse(summary.data.meta.to) : instantOf(view.to, view.timezone),
  };
  const filename = exportFilename(view);
  const data = summary.data?.data;
  const empty = data && data.charges === 0 && data.runs === 0 && (data.previous?.charges ?? 0) === 0;

  return (
    <>
      <PageHeader
        title="Analytics"
        description="What your team spent, on what and by whom, in your timezone. Amounts are credits (1 credit = 1 cent, so 100 credits are $1.00), counted when charged."
        actions={
          summary.data && (
            <ExportButton label="summary" filename={filename} build={() => summaryCsv(summary.data)} />
          )
        }
      />
      <div className="flex flex-col gap-6">
        <Panel title="View">
          <div className="flex flex-col gap-5">
            <RangeControls view={view} onChange={onChange} />
            <FilterBar
              query={query}
              comparison={comparisonOf(view)}
              filters={view.filters}
              onToggle={(name, value) => onChange(toggleFilterValue(view.filters, name, value))}
              onClear={() =>
                onChange(Object.fromEntries(Object.keys(view.filters).map((n) => [n, undefined])))
              }
            />
          </div>
        </Panel>

        <AnalyticsTabs value={view.tab} onChange={(tab) => onChange({ tab })} />
        {view.tab === 'performance' ? (
          <div
            role="tabpanel"
            id={tabPanelId('performance')}
            aria-labelledby={tabId('performance')}
            className="flex flex-col gap-6"
          >
            <PerformancePanel view={view} range={range} />
            <PerformanceOverTime view={view} />
          </div>
        ) : (
          <div
            role="tabpanel"
            id={tabPanelId('spend')}
            aria-labelledby={tabId('spend')}
            className="flex flex-col gap-6"
          >
            <QueryState query={summary} label="the summary">
              {(loaded) => (
                <div className="flex flex-col gap-3">
                  {loaded.meta.attribution_scope === 'self' && (
                    <Alert>
                      You are not a member of this team: other people’s keys and names are grouped as
                      “others”.
                    </Alert>
                  )}
                  <SummaryCards summary={loaded} />
                </div>
              )}
            </QueryState>

            {empty ? (
              <EmptyState title="No spend in this range">
                Nothing was charged between these days with these filters. Try a longer range or fewer
                filters.
              </EmptyState>
            ) : (
              summary.data && (
                <>
                  <SpendOverTime view={view} onStack={(stack) => onChange({ stack })} filename={filename} />
                  <Breakdown
                    view={view}
                    range={range}
                    filename={filename}
                    onDimension={(dim) => onChange({ dim })}
                    onFilter={(name, value) => onChange(toggleFilterValue(view.filters, name, value))}
                  />
                  {view.comparison && (
                    <WhatChangedPanel
                      view={view}
                      filename={filename}
                      onDimension={(change) => onChange({ change })}
                    />
                  )}
                  <TopIdentities query={query} view={view} range={range} filename={filename} />
                </>
              )
            )}
          </div>
        )}
      </div>
    </>
  );
}

function SpendOverTime({
  view,
  onStack,
  filename,
}: {
  view: AnalyticsView;
  onStack: (stack: Stack) => void;
  filename: string;
}) {
  const [asTable, setAsTable] = useState(false);
  const series = useQuery({
    ...analyticsSeriesQueryOptions(queryOf(view), view.bucket, view.stack),
    placeholderData: keepPreviousData,
  });
  return (
    <Panel
      title="Spend over time"
      description={`Per ${view.bucket} in ${view.timezone}, stacked by ${view.stack === 'model' ? 'model' : 'tool'}.`}
      actions={
        <>
          <StackSwitch value={view.stack} onChange={onStack} />
          <ViewToggle asTable={asTable} onChange={setAsTable} label="spend over time" />
          {series.data && (
            <ExportButton
              label="spend over time"
              filename={filename}
              build={() => seriesCsv(labelSeries(series.data, view))}
            />
          )}
        </>
      }
    >
      <QueryState query={series} label="spend over time">
        {(stacked) => <SpendChart stacked={stacked} view={view} asTable={asTable} />}
      </QueryState>
    </Panel>
  );
}

function StackSwitch({ value, onChange }: { value: Stack; onChange: (stack: Stack) => void }) {
  const options: Array<{ stack: Stack; label: string }> = [
    { stack: 'capability', label: 'By tool' },
    { stack: 'model', label: 'By model' },
  ];
  return (
    <fieldset className="inline-flex rounded-lg ring-1 ring-zinc-300 ring-inset dark:ring-zinc-700">
      <legend className="sr-only">Stack the bars</legend>
      {options.map((option) => (
        <label
          key={option.stack}
          className={cx(
            'inline-flex h-8 cursor-pointer items-center px-3 text-sm first:rounded-l-lg last:rounded-r-lg',
            'has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-indigo-600',
            value === option.stack
              ? 'bg-zinc-900 text-white dark:bg-zinc-100 dark:text-zinc-900'
              : 'text-zinc-700 hover:bg-zinc-50 dark:text-zinc-300 dark:hover:bg-zinc-800',
          )}
        >
          <input
            type="radio"
            name="analytics-stack"
            className="sr-only"
            checked={value === option.stack}
            onChange={() => onChange(option.stack)}
          />
          {option.label}
        </label>
      ))}
    </fieldset>
  );
}

interface BreakdownProps {
  view: AnalyticsView;
  range: { start: number; end: number };
  filename: string;
  onDimension: (dimension: AnalyticsDimension) => void;
  onFilter: (name: FilterName, value: string) => void;
}

/** What the panel's rows hold: the change column names the days it compares with. */
function breakdownDescription(breakdown: AnalyticsBreakdown | undefined): string {
  const periods = breakdown ? periodsOf(breakdown.meta) : null;
  const compared = periods?.previous ? ` Change: ${periods.current} against ${periods.previous}.` : '';
  return `Click a bar or a row to open its jobs.${compared}`;
}

function Breakdown({ view, range, filename, onDimension, onFilter }: BreakdownProps) {
  const selectId = useId();
  const breakdown = useQuery({
    ...breakdownQueryOptions(view),
    placeholderData: keepPreviousData,
  });
  return (
    <Panel
      title={`Spend by ${DIMENSION_LABELS[view.dimension].toLowerCase()}`}
      description={breakdownDescription(breakdown.data)}
      actions={
        <>
          <label htmlFor={selectId} className="text-sm text-zinc-700 dark:text-zinc-300">
            Break down by
          </label>
          <select
            id={selectId}
            className="h-8 w-36 rounded-lg border border-zinc-300 bg-white px-2 text-sm text-zinc-900 shadow-sm dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
            value={view.dimension}
            onChange={(e) => onDimension(e.target.value as AnalyticsDimension)}
          >
            {ANALYTICS_DIMENSIONS.map((dimension) => (
              <option key={dimension} value={dimension}>
                {DIMENSION_LABELS[dimension]}
              </option>
            ))}
          </select>
          {breakdown.data && (
            <ExportButton label="breakdown" filename={filename} build={() => breakdownCsv(breakdown.data)} />
          )}
        </>
      }
    >
      <QueryState query={breakdown} label="the breakdown">
        {(loaded) =>
          loaded.data.length === 0 ? (
            <p className="text-sm text-zinc-600 dark:text-zinc-400">No spend to break down.</p>
          ) : (
            <div className="flex flex-col gap-4">
              <BreakdownChart breakdown={loaded} view={view} range={range} />
              <BreakdownTable breakdown={loaded} view={view} range={range} onFilter={onFilter} />
            </div>
          )
        }
      </QueryState>
    </Panel>
  );
}
