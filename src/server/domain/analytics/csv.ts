import type {
  AnalyticsActivity,
  AnalyticsBreakdown,
  AnalyticsSummary,
  AnalyticsTimeseries,
  AnalyticsTotals,
} from '../../../contract/analytics.ts';

type Cell = string | number | boolean | null;

const TOTAL_COLUMNS = [
  'spend_cents',
  'charges',
  'jobs',
  'runs',
  'unsuccessful_spend_cents',
  'unattributed_spend_cents',
] as const satisfies readonly (keyof AnalyticsTotals)[];

/**
 * One CSV field (RFC 4180). Text that a spreadsheet would run as a formula (=, +, -, @, tab, CR at the
 * start: a folder or key name is chosen by people) gets a leading apostrophe; numbers are left alone.
 */
function field(value: Cell): string {
  if (value === null) return '';
  if (typeof value !== 'string') return String(value);
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function toCsv(header: readonly string[], rows: Cell[][]): string {
  return `${[header, ...rows].map((row) => row.map(field).join(',')).join('\r\n')}\r\n`;
}

const totalsOf = (t: AnalyticsTotals | null): Cell[] => TOTAL_COLUMNS.map((c) => (t ? t[c] : null));
const previousHeader = TOTAL_COLUMNS.map((c) => `previous_${c}`);

/** The summary: one row for the range and, with a comparison, one for the comparison period. */
export function summaryCsv(s: AnalyticsSummary): string {
  const rows: Cell[][] = [['current', s.meta.from, s.meta.to, ...totalsOf(s.data)]];
  if (s.data.previous)
    rows.push(['previous', s.meta.compare.from, s.meta.compare.to, ...totalsOf(s.data.previous)]);
  return toCsv(['period', 'from', 'to', ...TOTAL_COLUMNS], rows);
}

export function timeseriesCsv(s: AnalyticsTimeseries): string {
  const withPrevious = s.meta.compare.mode !== 'none';
  return toCsv(
    ['start', 'end', ...TOTAL_COLUMNS, ...(withPrevious ? previousHeader : [])],
    s.data.map((b) => [b.start, b.end, ...totalsOf(b), ...(withPrevious ? totalsOf(b.previous) : [])]),
  );
}

export function breakdownCsv(s: AnalyticsBreakdown): string {
  const withPrevious = s.meta.compare.mode !== 'none';
  return toCsv(
    [s.meta.dimension, 'label', 'other', ...TOTAL_COLUMNS, 'share', ...(withPrevious ? previousHeader : [])],
    s.data.map((r) => [
      r.key,
      r.label,
      r.other,
      ...totalsOf(r),
      r.share,
      ...(withPrevious ? totalsOf(r.previous) : []),
    ]),
  );
}

export function activityCsv(s: AnalyticsActivity): string {
  const columns = [
    'created_at',
    'job_id',
    'tool',
    'model',
    'status',
    'source',
    'creator',
    'folder_id',
    'api_key_id',
    'member_id',
    'spend_cents',
    'charges',
  ] as const;
  return toCsv(
    columns,
    s.data.map((item) => columns.map((c) => item[c])),
  );
}
