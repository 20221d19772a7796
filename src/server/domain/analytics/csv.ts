import type {
  AnalyticsActivity,
  AnalyticsBreakdown,
  AnalyticsSummary,
  AnalyticsTimeseries,
  AnalyticsTotals,
} from '../../../contract/analytics.ts';
import type {
  AnalyticsPerformance,
  AnalyticsPerformanceTimeseries,
  LatencyPercentiles,
  PerformanceFigures,
} from '../../../contract/analytics-performance.ts';
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

const SPAN_COLUMNS = ['total', 'queued', 'provider_queue', 'provider_run', 'downloading'] as const;
const figureHeader = [
  'jobs',
  'completed',
  'failed',
  'cancelled',
  'failure_rate',
  ...SPAN_COLUMNS.flatMap((s) => [`${s}_samples`, `${s}_p50_ms`, `${s}_p90_ms`, `${s}_p99_ms`]),
];

function figureCells(f: PerformanceFigures): CsvCell[] {
  const span = (p: LatencyPercentiles | null): CsvCell[] =>
    p ? [p.samples, p.p50_ms, p.p90_ms, p.p99_ms] : [0, null, null, null];
  return [
    f.jobs,
    f.completed,
    f.failed,
    f.cancelled,
    f.failure_rate,
    ...span(f.total),
    ...span(f.phases.queued),
    ...span(f.phases.provider_queue),
    ...span(f.phases.provider_run),
    ...span(f.phases.downloading),
  ];
}

/** Performance: one row per model and provider; top errors as `code:count` joined by spaces. */
export function performanceCsv(s: AnalyticsPerformance): string {
  return csvText(
    ['model', 'provider', ...figureHeader, 'top_errors'],
    s.data.map((r) => [
      r.model,
      r.provider,
      ...figureCells(r),
      r.top_errors.map((e) => `${e.code}:${e.count}`).join(' '),
    ]),
  );
}

/** The performance series: per bucket a row of all jobs (model and provider empty), then one per model. */
export function performanceTimeseriesCsv(s: AnalyticsPerformanceTimeseries): string {
  return csvText(
    ['start', 'end', 'model', 'provider', ...figureHeader],
    s.data.flatMap((b) => [
      [b.start, b.end, null, null, ...figureCells(b)],
      ...b.models.map((m) => [b.start, b.end, m.model, m.provider, ...figureCells(m)]),
    ]),
  );
}
