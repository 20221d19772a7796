import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import type { AnalyticsDimension } from '../../../../contract/analytics.ts';
import { formatCredits } from '../../../format/credits.ts';
import { whatChangedQueryOptions } from './analytics-queries.ts';
import { type AnalyticsView, changeDimensions } from './analytics-search.ts';
import { whatChangedCsv } from './csv.ts';
import { ExportButton } from './export-button.tsx';
import { formatShare, periodsOf } from './format.ts';
import { DIMENSION_LABELS } from './labels.ts';
import { Panel, QueryState } from './panel.tsx';
import { type Movement, type WhatChanged, whatChanged } from './what-changed.ts';

interface WhatChangedProps {
  view: AnalyticsView;
  filename: string;
  onDimension: (dimension: AnalyticsDimension) => void;
}

/**
 * The values of one dimension that moved spend most between the two periods, with their share of all
 * movement. One breakdown answers it: its rows carry the comparison period's spend.
 */
export function WhatChangedPanel({ view, filename, onDimension }: WhatChangedProps) {
  const selectId = useId();
  const breakdown = useQuery({ ...whatChangedQueryOptions(view), placeholderData: keepPreviousData });
  const changed = breakdown.data ? whatChanged(breakdown.data) : null;
  const periods = breakdown.data ? periodsOf(breakdown.data.meta) : null;
  return (
    <Panel
      title="What changed"
      description={
        periods?.previous
          ? `${periods.current} against ${periods.previous}, by ${DIMENSION_LABELS[view.changeDimension].toLowerCase()}.`
          : undefined
      }
      actions={
        <>
          <label htmlFor={selectId} className="text-sm text-zinc-700 dark:text-zinc-300">
            Changes by
          </label>
          <select
            id={selectId}
            className="h-8 w-36 rounded-lg border border-zinc-300 bg-white px-2 text-sm text-zinc-900 shadow-sm dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
            value={view.changeDimension}
            onChange={(e) => onDimension(e.target.value as AnalyticsDimension)}
          >
            {changeDimensions(view.filters).map((dimension) => (
              <option key={dimension} value={dimension}>
                {DIMENSION_LABELS[dimension]}
              </option>
            ))}
          </select>
          {changed && breakdown.data && changed.movements.length > 0 && (
            <ExportButton
              label="what changed"
              filename={filename}
              build={() => whatChangedCsv(changed, breakdown.data.meta)}
            />
          )}
        </>
      }
    >
      <QueryState query={breakdown} label="the comparison">
        {() =>
          !changed || changed.movements.length === 0 ? (
            <p className="text-sm text-zinc-600 dark:text-zinc-400">
              Spend did not move between the two periods.
            </p>
          ) : (
            <div className="flex flex-col gap-3">
              <Summary changed={changed} />
              <MovementList movements={changed.movements} />
            </div>
          )
        }
      </QueryState>
    </Panel>
  );
}

/** The net change, and what rose and fell beneath it (a net +100 can be +500 and −400). */
function Summary({ changed }: { changed: WhatChanged }) {
  const { net, rise, fall } = changed;
  const whole =
    net === 0
      ? 'Spend did not change overall'
      : `Spend went ${net > 0 ? 'up' : 'down'} ${formatCredits(Math.abs(net))}`;
  const parts = [
    rise > 0 && `${formatCredits(rise)} more on the values that rose`,
    fall > 0 && `${formatCredits(fall)} less on those that fell`,
  ].filter(Boolean);
  return (
    <p className="text-sm text-zinc-800 dark:text-zinc-200">
      {whole}: {parts.join(', ')}. Each share is of all {formatCredits(rise + fall)} that moved, up or down.
    </p>
  );
}

function MovementList({ movements }: { movements: Movement[] }) {
  const widest = Math.max(...movements.map((m) => Math.abs(m.delta)), 1);
  return (
    <ol className="flex flex-col gap-2.5">
      {movements.map((m) => (
        <li
          key={m.value ?? '__rest__'}
          className="grid grid-cols-1 gap-x-4 gap-y-1 text-sm sm:grid-cols-[minmax(0,1fr)_auto]"
        >
          <span className="truncate text-zinc-900 dark:text-zinc-100">{m.label}</span>
          <span className="tabular-nums text-zinc-900 sm:text-right dark:text-zinc-100">
            {m.delta > 0 ? '+' : m.delta < 0 ? '−' : '±'}
            {formatCredits(Math.abs(m.delta))}
            <span className="ml-2 text-zinc-600 dark:text-zinc-400">
              {formatShare(m.share)} of the movement
            </span>
          </span>
          <span aria-hidden="true" className="h-1.5 rounded-full bg-zinc-100 sm:col-span-2 dark:bg-zinc-800">
            <span
              className={
                m.delta > 0
                  ? 'block h-full rounded-full bg-amber-500 dark:bg-amber-400'
                  : 'block h-full rounded-full bg-sky-600 dark:bg-sky-400'
              }
              style={{ width: `${(Math.abs(m.delta) / widest) * 100}%` }}
            />
          </span>
          <span className="sr-only">
            from {formatCredits(m.previous)} to {formatCredits(m.current)}
          </span>
        </li>
      ))}
    </ol>
  );
}
