import type { Job } from '../../contract/jobs.ts';
import { isKeyId, JOB_STATUSES, NONE, TOOL_KEYS } from '../../contract/values.ts';
import { LOCAL_DATE, localDayStart } from '../format/date-time.ts';
import {
  commaSet,
  either,
  type Field,
  matching,
  oneOf,
  type SearchOf,
  searchParams,
  text,
} from '../search-params/fields.ts';
import { folderParam } from '../search-params/folder.ts';

const LocalDate = text({ pattern: LOCAL_DATE });

const feedFields = {
  status: commaSet(JOB_STATUSES),
  tool: commaSet(TOOL_KEYS),
  model: text({ trim: true, max: 200, pattern: /^[A-Za-z0-9][A-Za-z0-9._:/@+-]*$/ }),
  folder: folderParam,
  key: either(oneOf([NONE]), matching(isKeyId)) as Field<string>,
  /** An error code (`GET /v2/jobs?error_code=`): the failed jobs of a top error in analytics. */
  error: text({ trim: true, max: 100, pattern: /^[a-z0-9_.-]+$/ }),
  /** First local day of the created range (inclusive), YYYY-MM-DD. */
  from: LocalDate,
  /** Last local day of the created range (inclusive), YYYY-MM-DD. */
  to: LocalDate,
};

/** Search params of /jobs: every filter of the feed, in the URL (a bad value is dropped, not an error). */
export const JobFeedSearch = searchParams(feedFields);
export type JobFeedFilters = SearchOf<typeof feedFields>;

const FILTER_NAMES = ['status', 'tool', 'model', 'folder', 'key', 'error', 'from', 'to'] as const;

/** The filters without empty entries, keys in one order: the feed's query key and sync-point key. */
export function normalizeFilters(filters: JobFeedFilters): JobFeedFilters {
  const normal: JobFeedFilters = {};
  for (const name of FILTER_NAMES) {
    const value = filters[name];
    if (value) normal[name] = value;
  }
  return normal;
}

export function hasFilters(filters: JobFeedFilters): boolean {
  return FILTER_NAMES.some((name) => Boolean(filters[name]));
}

/** Query params of `GET /v2/jobs` for these filters; live updates leave out `status` (see jobs-live.ts). */
export function listQueryOf(filters: JobFeedFilters, { withStatus = true } = {}) {
  return {
    status: withStatus ? filters.status : undefined,
    tool: filters.tool,
    model: filters.model,
    folder: filters.folder,
    key: filters.key,
    error_code: filters.error,
    created_from: filters.from ? localDayStart(filters.from) : undefined,
    created_to: filters.to ? localDayStart(filters.to, 1) : undefined,
  };
}

const inList = (list: string | undefined, value: string) => !list || list.split(',').includes(value);

/** Whether a job belongs in a feed with these filters: the server's rules, applied to one job in the browser. */
export function jobMatches(job: Job, filters: JobFeedFilters): boolean {
  if (!inList(filters.status, job.status)) return false;
  if (!inList(filters.tool, job.tool)) return false;
  if (!inList(filters.model, job.model)) return false;
  if (filters.folder && (filters.folder === NONE ? job.folder_id !== null : job.folder_id !== filters.folder))
    return false;
  if (filters.key && (filters.key === NONE ? job.api_key_id !== null : job.api_key_id !== filters.key))
    return false;
  // As the server counts it: a failed job without a code has the code `unknown`.
  if (filters.error && (job.error?.code ?? (job.status === 'failed' ? 'unknown' : null)) !== filters.error)
    return false;
  const created = Date.parse(job.created_at);
  if (filters.from && created < Date.parse(localDayStart(filters.from))) return false;
  if (filters.to && created >= Date.parse(localDayStart(filters.to, 1))) return false;
  return true;
}
