import { parseBound, resolveBound } from '../../../../contract/analytics.ts';
import { JOB_STATUSES, NONE, TOOL_KEYS } from '../../../../contract/values.ts';
import type { JobFeedFilters } from '../../../queries/job-filters.ts';
import { type FilterName, type Filters, filterValues } from './analytics-search.ts';

/* From an analytics view (and a bar or row in it) to the job feed's URL filters. */

export interface JobFeedLink {
  search: JobFeedFilters;
  /** Filters the feed cannot apply (it has no person, source or creator filter, and one model/folder/key). */
  dropped: FilterName[];
}

const localDay = (instant: number) => {
  const date = new Date(instant);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
};

/** An instant from an analytics bound (a date, local date-time or instant) read in `timeZone`. */
export function instantOf(bound: string, timeZone: string): number {
  const parsed = parseBound(bound);
  if (!parsed) throw new Error(`not a range bound: ${bound}`);
  return resolveBound(parsed, timeZone);
}

/**
 * The feed's filters for these analytics filters over [start, end). The feed filters by the days jobs were
 * created on in the browser's timezone, so the range widens to whole local days; values the feed cannot
 * express are reported in `dropped` (the page says so next to the link).
 */
export function jobFeedLink(filters: Filters, start: number, end: number): JobFeedLink {
  const search: JobFeedFilters = {};
  const dropped: FilterName[] = [];
  const one = (name: FilterName): string | undefined => {
    const values = filterValues(filters, name);
    if (values.length === 0) return undefined;
    if (values.length > 1) {
      dropped.push(name);
      return undefined;
    }
    return values[0];
  };

  const tools = filterValues(filters, 'capability');
  if (tools.length > 0) {
    const known = TOOL_KEYS.filter((tool) => tools.includes(tool));
    if (known.length > 0) search.tool = known.join(',');
    else dropped.push('capability');
  }
  const statuses = filterValues(filters, 'status');
  if (statuses.length > 0) {
    const known = JOB_STATUSES.filter((status) => statuses.includes(status));
    if (known.length === statuses.length) search.status = known.join(',');
    else dropped.push('status');
  }
  const model = one('model');
  if (model && model !== NONE) search.model = model;
  else if (model) dropped.push('model');
  search.folder = one('folder');
  search.key = one('api_key');
  for (const name of ['member', 'creator', 'source'] as const) {
    if (filters[name]) dropped.push(name);
  }
  search.from = localDay(start);
  search.to = localDay(end - 1);
  for (const name of Object.keys(search) as (keyof JobFeedFilters)[]) {
    if (search[name] === undefined) delete search[name];
  }
  return { search, dropped };
}
