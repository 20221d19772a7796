/*
 * The contract's plain values: names, lists, limits and id forms, without zod. The zod schemas of the
 * other contract modules are built from these and re-export them; code that must load without zod (the
 * console's route search params and first screens) imports them from here.
 */

/** The eight tool keys of the spec (section 1), in the order the catalog lists them. */
export const TOOL_KEYS = [
  'image',
  'video',
  'speech',
  'music',
  'transcription',
  'ffmpeg',
  'render',
  'pipeline',
] as const;
export type ToolKeyValue = (typeof TOOL_KEYS)[number];

/** Limits of a comma-separated list filter (spec 4.10 and section 8). */
export const LIST_FILTER_MAX_CHARS = 4000;
export const LIST_FILTER_MAX_VALUES = 50;
/** The literal that selects rows where a dimension is empty (no folder, no API key, ...). */
export const NONE = 'none';

/** Job states (spec 3.1), in lifecycle order. */
export const JOB_STATUSES = ['queued', 'submitting', 'running', 'completed', 'failed', 'cancelled'] as const;
export type JobStatusValue = (typeof JOB_STATUSES)[number];
export const TERMINAL_JOB_STATUSES = [
  'completed',
  'failed',
  'cancelled',
] as const satisfies readonly JobStatusValue[];
export function isTerminalJobStatus(status: JobStatusValue): boolean {
  return (TERMINAL_JOB_STATUSES as readonly JobStatusValue[]).includes(status);
}

/**
 * Statuses the analytics status filter names (spec 4.10), in the spec's order: the job states plus
 * `awaiting_confirmation` (a charge whose job has not yet been confirmed by the provider) and `unknown`
 * (a charge whose job can no longer be found).
 */
export const ANALYTICS_JOB_STATUSES = [
  'completed',
  'failed',
  'cancelled',
  'awaiting_confirmation',
  'running',
  'submitting',
  'queued',
  'unknown',
] as const;
/** How a run was started. Analytics adds `unknown` for charges that predate the attribution. */
export const RUN_SOURCES = ['app', 'api', 'mcp', 'internal'] as const;
export const ANALYTICS_SOURCES = [...RUN_SOURCES, 'unknown'] as const;

/** Kinds of credit ledger entries (contract/billing.ts says what each is). */
export const LEDGER_KINDS = ['grant', 'hold', 'settle', 'release', 'refund', 'adjustment'] as const;

/** Where a file came from. */
export const FILE_ORIGINS = ['upload', 'import', 'job'] as const;
/** Limits (spec 4.5, 3.2 and section 8). */
export const UPLOAD_MAX_BYTES = 209_715_200;
export const FILE_NAME_MAX = 255;

export const PRESET_NAME_MAX = 100;
export const VIDEO_ANALYZE_MODEL = 'video-analyze';
export const ANALYTICS_MAX_RANGE_DAYS = 366;

/** The breakdown dimensions of analytics, each also a filter under the same name (ours). */
export const ANALYTICS_DIMENSIONS = [
  'capability',
  'model',
  'folder',
  'api_key',
  'member',
  'creator',
  'source',
  'status',
] as const;
export type AnalyticsDimensionValue = (typeof ANALYTICS_DIMENSIONS)[number];

// Ids. Each is at most ID_MAX characters (preset ids have a fixed length).
export const ID_MAX = 128;
/** Job ids start with `job_` (spec 2.1 and 4.4: `id` matches `^job_`). */
export const JOB_ID = /^job_/;
/** API key ids: `key_` followed by opaque characters (our choice; the spec does not show them). */
export const KEY_ID = /^key_[A-Za-z0-9_-]+$/;
export const FILE_ID = /^file_[A-Za-z0-9_-]+$/;
export const TEMPLATE_ID = /^tpl_[A-Za-z0-9_-]+$/;
export const PRESET_ID = /^preset_[0-9a-f]{12}$/;
/** An RFC 9562 UUID, as zod's `z.uuid()` reads one (any version, and the nil and max ids). */
export const UUID =
  /^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$/;
const UUID_LIKE = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
/** An analytics creator: `api_key:<key id>` or `member:<user id>`. */
export const CREATOR = new RegExp(`^(api_key:key_[A-Za-z0-9_-]+|member:${UUID_LIKE})$`);

const idOf = (pattern: RegExp) => (value: unknown) =>
  typeof value === 'string' && value.length <= ID_MAX && pattern.test(value);
export const isJobId = idOf(JOB_ID);
export const isKeyId = idOf(KEY_ID);
export const isFileId = idOf(FILE_ID);
export const isTemplateId = idOf(TEMPLATE_ID);
export const isPresetId = idOf(PRESET_ID);
export const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID.test(value);

const among =
  <const T extends readonly string[]>(values: T) =>
  (value: string) =>
    (values as readonly string[]).includes(value);

/** What one value of each analytics filter must look like (analyticsFilters in analytics.ts, without zod). */
const ANALYTICS_FILTER_ITEM: Record<AnalyticsDimensionValue, (value: string) => boolean> = {
  capability: among(TOOL_KEYS),
  model: (value) => value.length >= 1 && value.length <= 200,
  folder: isUuid,
  api_key: isKeyId,
  member: isUuid,
  creator: (value) => CREATOR.test(value),
  source: among(ANALYTICS_SOURCES),
  status: among(ANALYTICS_JOB_STATUSES),
};

/**
 * True when `raw` is a value the analytics filter `name` accepts: `none`, or a comma list of at most 50
 * values (4000 characters) each of the dimension's form. analytics.test.ts holds it to the zod schema.
 */
export function isAnalyticsFilterValue(name: AnalyticsDimensionValue, raw: string): boolean {
  if (raw.length > LIST_FILTER_MAX_CHARS) return false;
  if (raw.trim() === NONE) return true;
  const values = raw
    .split(',')
    .map((value) => value.trim())
    .filter((value) => value.length > 0);
  return values.length <= LIST_FILTER_MAX_VALUES && values.every(ANALYTICS_FILTER_ITEM[name]);
}

const zoneFormatters = new Map<string, Intl.DateTimeFormat>();
/** A cached formatter of wall-clock parts in `timeZone`; throws for a zone the runtime does not know. */
export function zoneFormatter(timeZone: string): Intl.DateTimeFormat {
  let format = zoneFormatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      era: 'short',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    zoneFormatters.set(timeZone, format);
  }
  return format;
}

/** True for a time zone name the runtime knows (IANA names, case-insensitive, and `UTC`). */
export function isTimeZone(value: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(value)) return false;
  try {
    zoneFormatter(value);
    return true;
  } catch {
    return false;
  }
}
