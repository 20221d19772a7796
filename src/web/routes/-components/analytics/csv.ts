import type { AnalyticsBreakdown, AnalyticsMeta, AnalyticsSummary } from '../../../../contract/analytics.ts';
import { type CsvCell, csvText } from '../../../../contract/csv.ts';
import { downloadText } from '../../../format/download-text.ts';
import type { StackedSeries } from '../../../queries/analytics.ts';
import type { AnalyticsView } from './analytics-search.ts';
import { periodsOf } from './format.ts';
import type { WhatChanged } from './what-changed.ts';

/*
 * CSV of exactly what a panel shows (RFC 4180; amounts in credits, 1 credit = 1 cent, with dollars beside
 * the money that finance reads). Every file names its period, and the comparison period where it has one.
 */

type Cell = CsvCell;

/** Rows in the contract's one CSV writer (the API's `format=csv` answers use it too). */
export const buildCsv = csvText;

/** Credits as dollars, a number (so a negative amount is not taken for a formula). */
const dollars = (credits: number | null | undefined) =>
  credits === null || credits === undefined ? null : Math.round(credits) / 100;

/** "2026-07-01 to 2026-09-30": days, both inclusive. */
const period = (first: string, last: string) => `${first} to ${last}`;

/** The period of an answer and its comparison period (null without one), as days in its timezone. */
export function csvPeriods(meta: AnalyticsMeta): { current: string; previous: string | null } {
  return periodsOf(meta, period);
}

/** A file name that says the days and the timezone: `analytics-2026-07-01-to-2026-09-30-vs-2026-04-01-to-2026-06-30-UTC`. */
export function exportFilename(view: AnalyticsView): string {
  const compared = view.comparison ? `-vs-${view.comparison.from}-to-${view.comparison.lastDay}` : '';
  return `analytics-${view.from}-to-${view.lastDay}${compared}-${view.timezone.replaceAll('/', '_')}`;
}

const FIGURES = [
  ['spend_credits', 'spend_cents'],
  ['charges', 'charges'],
  ['jobs', 'jobs'],
  ['runs', 'runs'],
  ['unsuccessful_spend_credits', 'unsuccessful_spend_cents'],
  ['unattributed_spend_credits', 'unattributed_spend_cents'],
] as const;

/**
 * The cards: one row per figure, with the comparison period and the change when there is one, the
 * money in dollars too, and on every row the two periods it compares.
 */
export function summaryCsv(summary: AnalyticsSummary): string {
  const { data } = summary;
  const periods = csvPeriods(summary.meta);
  const rows: Cell[][] = FIGURES.map(([name, field]) => {
    const money = name.endsWith('_credits');
    const previous = data.previous?.[field] ?? null;
    const delta = data.change?.[field].delta ?? null;
    return [
      name,
      data[field],
      previous,
      delta,
      data.change?.[field].ratio ?? null,
      money ? dollars(data[field]) : null,
      money ? dollars(previous) : null,
      money ? dollars(delta) : null,
      periods.current,
      periods.previous,
    ];
  });
  if (data.balance) {
    const balance = data.balance.balance_cents;
    rows.push(['balance_credits', balance, null, null, null, dollars(balance), null, null, null, null]);
  }
  return buildCsv(
    [
      'figure',
      'current',
      'previous',
      'change',
      'change_ratio',
      'current_dollars',
      'previous_dollars',
      'change_dollars',
      'period',
      'previous_period',
    ],
    rows,
  );
}

/** Spend over time: a row per bucket, a column per stacked series, the bucket's total, then a total row. */
export function seriesCsv(stacked: StackedSeries): string {
  const header = ['bucket_start', 'bucket_end', ...stacked.series.map((s) => s.label), 'total_credits'];
  const rows: Cell[][] = stacked.buckets.map((bucket) => [
    bucket.start,
    bucket.end,
    ...stacked.series.map((s) => bucket.spend[s.id] ?? 0),
    bucket.total,
  ]);
  const sum = (pick: (bucket: StackedSeries['buckets'][number]) => number) =>
    stacked.buckets.reduce((total, bucket) => total + pick(bucket), 0);
  rows.push([
    'Total',
    null,
    ...stacked.series.map((s) => sum((bucket) => bucket.spend[s.id] ?? 0)),
    sum((bucket) => bucket.total),
  ]);
  return buildCsv(header, rows);
}

/** A breakdown table: its rows as shown, then a total row (the sum of the rows, which the server makes whole). */
export function breakdownCsv(breakdown: AnalyticsBreakdown): string {
  const compared = breakdown.data.some((row) => row.previous !== null);
  const header = [
    breakdown.meta.dimension,
    'label',
    'spend_credits',
    'charges',
    'jobs',
    'runs',
    'share',
    ...(compared ? ['previous_spend_credits', 'change_credits'] : []),
    'spend_dollars',
    'period',
    ...(compared ? ['previous_period'] : []),
  ];
  const periods = csvPeriods(breakdown.meta);
  const periodCells = [periods.current, ...(compared ? [periods.previous] : [])];
  const rows: Cell[][] = breakdown.data.map((row) => [
    row.other ? 'other' : (row.key ?? 'none'),
    row.label,
    row.spend_cents,
    row.charges,
    row.jobs,
    row.runs,
    row.share,
    ...(compared ? [row.previous?.spend_cents ?? 0, row.spend_cents - (row.previous?.spend_cents ?? 0)] : []),
    dollars(row.spend_cents),
    ...periodCells,
  ]);
  const sum = (pick: (row: AnalyticsBreakdown['data'][number]) => number) =>
    breakdown.data.reduce((total, row) => total + pick(row), 0);
  const previous = sum((row) => row.previous?.spend_cents ?? 0);
  rows.push([
    'total',
    'Total',
    sum((row) => row.spend_cents),
    sum((row) => row.charges),
    sum((row) => row.jobs),
    sum((row) => row.runs),
    breakdown.data.length > 0 ? 1 : 0,
    ...(compared ? [previous, sum((row) => row.spend_cents) - previous] : []),
    dollars(sum((row) => row.spend_cents)),
    ...periodCells,
  ]);
  return buildCsv(header, rows);
}

/** "What changed": each movement with both periods' spend, its change and its share of all movement. */
export function whatChangedCsv(changed: WhatChanged, meta: AnalyticsMeta): string {
  const periods = csvPeriods(meta);
  const rows: Cell[][] = changed.movements.map((m) => [
    changed.dimension,
    m.value ?? 'other',
    m.label,
    m.previous,
    m.current,
    m.delta,
    dollars(m.delta),
    m.share,
    periods.current,
    periods.previous,
  ]);
  return buildCsv(
    [
      'dimension',
      'value',
      'label',
      'previous_credits',
      'current_credits',
      'change_credits',
      'change_dollars',
      'share_of_movement',
      'period',
      'previous_period',
    ],
    rows,
  );
}

/** Starts a download of a CSV text in the browser. */
export function downloadCsv(filename: string, text: string): void {
  downloadText(filename, text);
}
