import type {
  AnalyticsActivity,
  AnalyticsBreakdown,
  AnalyticsSummary,
  AnalyticsTimeseries,
  AnalyticsTotals,
} from '../../../contract/analytics.ts';
import { type CsvCell, csvText } from '../../../contract/csv.ts';

/*
 * The API's `format=csv` answers: the JSON answer's own rows and figures in cents, for scripts. The
 * console's panel exports (web/routes/-components/analytics/csv.ts) write what a panel shows instead
 * (its cards, series and Total rows, in credits), with the same writer.
 */

const TOTAL_COLUMNS = [
  'spend_cents',
  'charges',
  'jobs',
  'runs',
  'unsuccessful_spend_cents',
  'unattributed_spend_cents',
] as const satisfies readonly (keyof AnalyticsTotals)[];

const totalsOf = (t: AnalyticsTotals | null): CsvCell[] => TOTAL_COLUMNS.map((c) => (t ? t[c] : null));
const previousHeader = TOTAL_COLUMNS.map((c) => `previous_${c}`);

/** The summary: one row for the range and, with a comparison, one for the comparison period. */
export function summaryCsv(s: AnalyticsSummary): string {
  const rows: CsvCell[][] = [['current', s.meta.from, s.meta.to, ...totalsOf(s.data)]];
  if (s.data.previous)
    rows.push(['previous', s.meta.compare.from, s.meta.compare.to, ...totalsOf(s.data.previous)]);
  return csvText(['period', 'from', 'to', ...TOTAL_COLUMNS], rows);
}

/** With `group_by`, each group's spend follows, one column per group named by its label. */
export function timeseriesCsv(s: AnalyticsTimeseries): string {
  const withPrevious = s.meta.compare.mode !== 'none';
  const groupHeader = s.meta.groups.map((g) => `spend_cents ${g.label}`);
  return csvText(
    ['start', 'end', ...TOTAL_COLUMNS, ...(withPrevious ? previousHeader : []), ...groupHeader],
    s.data.map((b) => [
      b.start,
      b.end,
      ...totalsOf(b),
      ...(withPrevious ? totalsOf(b.previous) : []),
      ...(b.groups ?? []).map((g) => g.spend_cents),
    ]),
  );
}

export function breakdownCsv(s: AnalyticsBreakdown): string {
  const withPrevious = s.meta.compare.mode !== 'none';
  return csvText(
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
  return csvText(
    columns,
    s.data.map((item) => columns.map((c) => item[c])),
  );
}
