import { z } from 'zod';
import { NONE, TOOL_KEYS } from '../../contract/common.ts';
import { JOB_STATUSES, type Job, KeyId } from '../../contract/jobs.ts';
import { LOCAL_DATE, localDayStart } from '../format/date-time.ts';

/**
 * A comma list of known values in the URL (`?status=running,queued`): unknown values are dropped and
 * the rest kept in their canonical order, so equal filters make equal query keys.
 */
function enumList<const T extends readonly string[]>(values: T) {
  return z
    .string()
    .transform((raw) => {
      const picked = new Set(raw.split(',').map((v) => v.trim()));
      const kept = values.filter((v) => picked.has(v));
      return kept.length > 0 ? kept.join(',') : undefined;
    })
    .optional()
    .catch(undefined);
}

const Model = z
  .string()
  .trim()
  .max(200)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:/@+-]*$/)
  .optional()
  .catch(undefined);
const Folder = z
  .union([z.literal(NONE), z.uuid().transform((id) => id.toLowerCase())])
  .optional()
  .catch(undefined);
const Key = z
  .union([z.literal(NONE), KeyId])
  .optional()
  .catch(undefined);
const LocalDate = z.string().regex(LOCAL_DATE).optional().catch(undefined);

/** Search params of /jobs: every filter of the feed, in the URL (a bad value is dropped, not an error). */
export const JobFeedSearch = z.object({
  status: enumList(JOB_STATUSES),
  tool: enumList(TOOL_KEYS),
  model: Model,
  folder: Folder,
  key: Key,
  /** First local day of the created range (inclusive), YYYY-MM-DD. */
  from: LocalDate,
  /** Last local day of the created range (inclusive), YYYY-MM-DD. */
  to: LocalDate,
});
export type JobFeedFilters = z.output<typeof JobFeedSearch>;

const FILTER_NAMES = ['status', 'tool', 'model', 'folder', 'key', 'from', 'to'] as const;

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
  const created = Date.parse(job.created_at);
  if (filters.from && created < Date.parse(localDayStart(filters.from))) return false;
  if (filters.to && created >= Date.parse(localDayStart(filters.to, 1))) return false;
  return true;
}
