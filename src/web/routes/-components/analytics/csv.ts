import type { AnalyticsBreakdown, AnalyticsSummary } from '../../../../contract/analytics.ts';
import type { StackedSeries } from '../../../queries/analytics.ts';

/* CSV of exactly what a panel shows (RFC 4180; amounts in credits, 1 credit = 1 cent). */

type Cell = string | number | null;

/** Quotes what needs it; a text cell that a spreadsheet would run as a formula gets a leading quote. */
function cell(value: Cell): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

export function buildCsv(header: readonly string[], rows: readonly (readonly Cell[])[]): string {
  return `${[header, ...rows].map((row) => row.map(cell).join(',')).join('\r\n')}\r\n`;
}

const FIGURES = [
  ['spend_credits', 'spend_cents'],
  ['charges', 'charges'],
  ['jobs', 'jobs'],
  ['runs', 'runs'],
  ['unsuccessful_spend_credits', 'unsuccessful_spend_cents'],
  ['unattributed_spend_credits', 'unattributed_spend_cents'],
] as const;

/** The cards: one row per figure, with the comparison period and the change when there is one. */
export function summaryCsv(summary: AnalyticsSummary): string {
  const { data } = summary;
  const rows: Cell[][] = FIGURES.map(([name, field]) => [
    name,
    data[field],
    data.previous?.[field] ?? null,
    data.change?.[field].delta ?? null,
    data.change?.[field].ratio ?? null,
  ]);
  if (data.balance) rows.push(['balance_credits', data.balance.balance_cents, null, null, null]);
  return buildCsv(['figure', 'current', 'previous', 'change', 'change_ratio'], rows);
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
  ];
  const rows: Cell[][] = breakdown.data.map((row) => [
    row.other ? 'other' : (row.key ?? 'none'),
    row.label,
    row.spend_cents,
    row.charges,
    row.jobs,
    row.runs,
    row.share,
    ...(compared ? [row.previous?.spend_cents ?? 0, row.spend_cents - (row.previous?.spend_cents ?? 0)] : []),
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
  ]);
  return buildCsv(header, rows);
}

/** Starts a download of a CSV text in the browser. */
export function downloadCsv(filename: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
