import type { AnalyticsDimension } from '../../../../contract/analytics.ts';
import { ANALYTICS_DIMENSIONS, isAnalyticsFilterValue, isTimeZone } from '../../../../contract/values.ts';
import { LOCAL_DATE } from '../../../format/date-time.ts';
import type { AnalyticsQuery } from '../../../queries/analytics.ts';
import {
  type Field,
  matching,
  oneOf,
  type SearchOf,
  searchParams,
  text,
} from '../../../search-params/fields.ts';
import { bucketFor, RANGE_PRESETS, type RangePreset, resolveRange } from './date-range.ts';

/* The analytics view in the URL, so a link shares it: range, timezone, comparison, filters, chart choices. */

/** Every breakdown dimension is also a filter, under the same name (the contract's one list). */
export const FILTER_NAMES = ANALYTICS_DIMENSIONS;
export type FilterName = AnalyticsDimension;
export type Filters = Partial<Record<FilterName, string>>;

export const STACKS = ['capability', 'model'] as const;
export type Stack = (typeof STACKS)[number];

/** A filter value the API accepts (a comma list or `none`), else dropped: a bad link never breaks the page. */
function filterParam(name: FilterName): Field<string> {
  return matching((value) => isAnalyticsFilterValue(name, value));
}

const LocalDate = text({ pattern: LOCAL_DATE });

const analyticsFields = {
  range: oneOf(RANGE_PRESETS),
  /** First and last day of a custom range, both inclusive. */
  from: LocalDate,
  to: LocalDate,
  tz: matching((value) => value.length <= 64 && isTimeZone(value)),
  compare: oneOf(['off']),
  stack: oneOf(STACKS),
  dim: oneOf(ANALYTICS_DIMENSIONS),
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
  preset: RangePreset;
  from: string;
  to: string;
  lastDay: string;
  days: number;
  timezone: string;
  compare: boolean;
  stack: Stack;
  dimension: AnalyticsDimension;
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
  return {
    preset,
    ...range,
    timezone,
    compare: search.compare !== 'off',
    stack: search.stack ?? 'capability',
    dimension: search.dim ?? 'capability',
    bucket: bucketFor(range.days),
    filters,
  };
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

/** The range, timezone and filters as the analytics endpoints take them. */
export function queryOf(view: AnalyticsView): AnalyticsQuery {
  return { from: view.from, to: view.to, timezone: view.timezone, ...view.filters };
}
