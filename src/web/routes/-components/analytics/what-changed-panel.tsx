import { useQueries } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { AnalyticsDimension, AnalyticsSummary } from '../../../../contract/analytics.ts';
import { LoadingNote } from '../../../components/loading-note.tsx';
import { formatCredits } from '../../../format/credits.ts';
import { type AnalyticsQuery, analyticsBreakdownQueryOptions } from '../../../queries/analytics.ts';
import { buildCsv } from './csv.ts';
import { ExportButton } from './export-button.tsx';
import { formatShare } from './format.ts';
import { DIMENSION_LABELS, rowLabel } from './labels.ts';
import { Panel } from './panel.tsx';
import { type Contribution, whatChanged } from './what-changed.ts';

/** The dimensions compared; 100 rows each, so "other" (left out of the comparison) stays small. */
export const CHANGE_DIMENSIONS: readonly AnalyticsDimension[] = [
  'capability',
  'model',
  'api_key',
  'member',
  'folder',
  'source',
];
export const CHANGE_ROWS = 100;

interface WhatChangedProps {
  query: AnalyticsQuery;
  summary: AnalyticsSummary;
  filename: string;
}

/** The values that moved spend most between the period and the one before, with their share of the move. */
export function WhatChangedPanel({ query, summary, filename }: WhatChangedProps) {
  const compare = summary.meta.compare;
  const previousQuery = compare.from && compare.to ? { ...query, from: compare.from, to: compare.to } : null;
  // Current and comparison breakdowns side by side: [current, previous] per dimension.
  const results = useQueries({
    queries: previousQuery
      ? CHANGE_DIMENSIONS.flatMap((dimension) => [
          analyticsBreakdownQueryOptions(query, dimension, CHANGE_ROWS),
          analyticsBreakdownQueryOptions(previousQuery, dimension, CHANGE_ROWS),
        ])
      : [],
  });
  const totalDelta = summary.data.change?.spend_cents.delta ?? 0;

  let body: ReactNode;
  let contributions: Contribution[] = [];
  if (!previousQuery || !summary.data.change) {
    body = (
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        Turn on the comparison with the previous period to see what changed.
      </p>
    );
  } else if (results.some((r) => r.isError)) {
    body = (
      <p role="alert" className="text-sm text-red-800 dark:text-red-300">
        Could not load the comparison: {String(results.find((r) => r.isError)?.error?.message)}
      </p>
    );
  } else if (results.some((r) => r.isPending)) {
    body = <LoadingNote>Comparing the two periods…</LoadingNote>;
  } else {
    contributions = whatChanged(
      CHANGE_DIMENSIONS.map((dimension, index) => ({
        dimension,
        current: results[index * 2]?.data?.data ?? [],
        previous: results[index * 2 + 1]?.data?.data ?? [],
      })),
      totalDelta,
    );
    body =
      contributions.length === 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          Spend did not move between the two periods.
        </p>
      ) : (
        <ContributionList contributions={contributions} />
      );
  }

  return (
    <Panel
      title="What changed"
      description={
        summary.data.change
          ? `Spend moved ${totalDelta >= 0 ? 'up' : 'down'} ${formatCredits(Math.abs(totalDelta))} against the previous period. The values that moved it most:`
          : undefined
      }
      actions={
        contributions.length > 0 && (
          <ExportButton
            label="what changed"
            filename={filename}
            build={() =>
              buildCsv(
                [
                  'dimension',
                  'value',
                  'label',
                  'current_credits',
                  'previous_credits',
                  'change_credits',
                  'share_of_change',
                ],
                contributions.map((c) => [
                  c.dimension,
                  c.value,
                  c.label,
                  c.current,
                  c.previous,
                  c.delta,
                  c.share,
                ]),
              )
            }
          />
        )
      }
    >
      {body}
    </Panel>
  );
}

function ContributionList({ contributions }: { contributions: Contribution[] }) {
  const widest = Math.max(...contributions.map((c) => Math.abs(c.delta)));
  return (
    <ol className="flex flex-col gap-2.5">
      {contributions.map((c) => (
        <li
          key={`${c.dimension}:${c.value}`}
          className="grid grid-cols-[minmax(0,1fr)_auto] gap-x-4 gap-y-1 text-sm"
        >
          <span className="truncate text-zinc-900 dark:text-zinc-100">
            <span className="text-zinc-600 dark:text-zinc-400">{DIMENSION_LABELS[c.dimension]}</span>{' '}
            {rowLabel(c.dimension, {
              key: c.value === 'none' ? null : c.value,
              label: c.label,
              other: false,
            })}
          </span>
          <span className="text-right tabular-nums text-zinc-900 dark:text-zinc-100">
            {c.delta > 0 ? '+' : '−'}
            {formatCredits(Math.abs(c.delta))}
            {c.share !== null && (
              <span className="ml-2 text-zinc-600 dark:text-zinc-400">
                {formatShare(c.share)} of the change
              </span>
            )}
          </span>
          <span aria-hidden="true" className="col-span-2 h-1.5 rounded-full bg-zinc-100 dark:bg-zinc-800">
            <span
              className={
                c.delta > 0
                  ? 'block h-full rounded-full bg-amber-500 dark:bg-amber-400'
                  : 'block h-full rounded-full bg-sky-600 dark:bg-sky-400'
              }
              style={{ width: `${(Math.abs(c.delta) / widest) * 100}%` }}
            />
          </span>
          <span className="sr-only">
            from {formatCredits(c.previous)} to {formatCredits(c.current)}
          </span>
        </li>
      ))}
    </ol>
  );
}
