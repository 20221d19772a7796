import type { AnalyticsDimension } from '../../../../contract/analytics.ts';
import { ANALYTICS_DIMENSIONS, isAnalyticsFilterValue, isTimeZone } from '../../../../contract/values.ts';
import { LOCAL_DATE } from '../../../format/date-time.ts';
import type { AnalyticsQuery, Comparison } from '../../../queries/analytics.ts';
import {
  type Field,
  matching,
  oneOf,
  type SearchOf,
  searchParams,
  text,
} from '../../../search-params/fields.ts';
import { COMPARE_MODES, type CompareMode, resolveComparison } from './comparison.ts';
import {
  bucketFor,
  RANGE_PRESETS,
  type RangePreset,
  type ResolvedRange,
  resolveRange,
} from './date-range.ts';

/* The analytics view in the URL, so a link shares it: range, timezone, comparison, filters, chart choices. */

/** Every breakdown dimension is also a filter, under the same name (the contract's one list). */
export const FILTER_NAMES = ANALYTICS_DIMENSIONS;
export type FilterName = AnalyticsDimension;
export type Filters = Partial<Record<FilterName, string>>;

export const STACKS = ['capability', 'model'] as const;
export type Stack = (typeof STACKS)[number];

/** The page's tabs: what was spent, and how fast and reliable each model was. */
export const ANALYTICS_TABS = ['spend', 'performance'] as const;
export type AnalyticsTab = (typeof ANALYTICS_TABS)[number];

/** A filter value the API accepts (a comma list or `none`), else dropped: a bad link never breaks the page. */
function filterParam(name: FilterName): Field<string> {
  return matching((value) => isAnalyticsFilterValue(name, value));
}

const LocalDate = text({ pattern: LOCAL_DATE });

const analyticsFields = {
  tab: oneOf(ANALYTICS_TABS),
  range: oneOf(RANGE_PRESETS),
  /** First and last day of a custom range, both inclusive. */
  from: LocalDate,
  to: LocalDate,
  tz: matching((value) => value.length <= 64 && isTimeZone(value)),
  /** What the range is compared with: the period before (the default), a year before, custom days, off. */
  compare: oneOf(COMPARE_MODES),
  /** First and last day of a custom comparison, both inclusive. */
  cfrom: LocalDate,
  cto: LocalDate,
  stack: oneOf(STACKS),
  dim: oneOf(ANALYTICS_DIMENSIONS),
  /** The dimension "What changed" ranks (one at a time, so shares add up). */
  change: oneOf(ANALYTICS_DIMENSIONS),
  capability: filterParam('capability'),
  model: filterParam('model'),
  folder: filterParam('folder'),
  api_key: filterParam('api_key'),
  member: filterParam('member'),
  creator: filterParam('creator'),
  source: filterParam('source'),
  status: filterParam('status'),
};
export const AnalyticsSearch = searchParams(analyticsFields);
export type AnalyticsSearch = SearchOf<typeof analyticsFields>;

export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** Everything the page asks the API for, with the defaults filled in. */
export interface AnalyticsView {
  tab: AnalyticsTab;
  /** The time the presets were resolved at (the page's opening, so the days hold while one reads). */
  now: Date;
  preset: RangePreset;
  from: string;
  to: string;
  lastDay: string;
  days: number;
  timezone: string;
  compareMode: CompareMode;
  /** The days compared with, or null without a comparison. */
  comparison: ResolvedRange | null;
  stack: Stack;
  dimension: AnalyticsDimension;
  /** The dimension "What changed" ranks: never one the page is filtered by (one value would be 100%). */
  changeDimension: AnalyticsDimension;
  bucket: ReturnType<typeof bucketFor>;
  filters: Filters;
}

export function viewOf(search: AnalyticsSearch, now: Date): AnalyticsView {
  const preset = search.range ?? '30d';
  const timezone = search.tz ?? browserTimeZone();
  const range = resolveRange(preset, timezone, now, { from: search.from, to: search.to });
  const filters: Filters = {};
  for (const name of FILTER_NAMES) {
    const value = search[name];
    if (value) filters[name] = value;
  }
  const compareMode = search.compare ?? 'previous';
  return {
    tab: search.tab ?? 'spend',
    now,
    preset,
    ...range,
    timezone,
    compareMode,
    comparison: resolveComparison(compareMode, preset, range, { from: search.cfrom, to: search.cto }),
    stack: search.stack ?? 'capability',
    dimension: search.dim ?? 'capability',
    changeDimension: changeDimensionOf(search.change, filters),
    bucket: bucketFor(range.days),
    filters,
  };
}

/** The dimensions "What changed" can rank: every one the page is not filtered by. */
export function changeDimensions(filters: Filters): AnalyticsDimension[] {
  return ANALYTICS_DIMENSIONS.filter((dimension) => !filters[dimension]);
}

function changeDimensionOf(chosen: AnalyticsDimension | undefined, filters: Filters): AnalyticsDimension {
  const open = changeDimensions(filters);
  if (chosen && open.includes(chosen)) return chosen;
  return open[0] ?? 'capability';
}

/** The values of one filter (`none` is a value of its own). */
export function filterValues(filters: Filters, name: FilterName): string[] {
  const raw = filters[name];
  return raw ? raw.split(',').filter(Boolean) : [];
}

/** Adds or removes one value of a filter; `none` and concrete values exclude each other. */
export function toggleFilterValue(filters: Filters, name: FilterName, value: string): Filters {
  const current = filterValues(filters, name);
  let next: string[];
  if (current.includes(value)) next = current.filter((v) => v !== value);
  else if (value === 'none') next = ['none'];
  else next = [...current.filter((v) => v !== 'none'), value];
  return { ...filters, [name]: next.length > 0 ? next.join(',') : undefined };
}

/** The comparison as the analytics endpoints take it (`compare_to` exclusive), or null without one. */
export function comparisonOf(view: AnalyticsView): Comparison | null {
  return view.comparison ? { compare_from: view.comparison.from, compare_to: view.comparison.to } : null;
}

/** The range, timezone and filters as the analytics endpoints take them. */
export function queryOf(view: AnalyticsView): AnalyticsQuery {
  return { from: view.from, to: view.to, timezone: view.timezone, ...view.filters };
}
