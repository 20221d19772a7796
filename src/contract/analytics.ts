import { z } from 'zod';
import {
  Cents,
  commaListOrNone,
  NONE,
  PageQuery,
  QueryBoolean,
  SignedCents,
  Timestamp,
  ToolKey,
  Uuid,
} from './common.ts';
import { defineEndpoint } from './endpoint.ts';
import { AnalyticsJobStatus, KeyId } from './jobs.ts';
import {
  ANALYTICS_DIMENSIONS,
  ANALYTICS_MAX_RANGE_DAYS,
  ANALYTICS_SOURCES,
  CREATOR,
  isTimeZone,
  zoneFormatter,
} from './values.ts';

export { ANALYTICS_DIMENSIONS, ANALYTICS_MAX_RANGE_DAYS, ANALYTICS_SOURCES, isTimeZone };

// ---------------------------------------------------------------------------------------------
// Limits (spec 4.10 and section 8)
// ---------------------------------------------------------------------------------------------
export const ANALYTICS_BOUND_MAX = 40;
export const ANALYTICS_TIMEZONE_MAX = 64;
/** Without `from`, the range starts `to` minus 30 days; without `to`, it ends now (spec 4.10). */
export const ANALYTICS_DEFAULT_RANGE_DAYS = 30;
export const ANALYTICS_DEFAULT_TIMEZONE = 'UTC';

const DAY_MS = 86_400_000;

// ---------------------------------------------------------------------------------------------
// Range bounds: `YYYY-MM-DD`, a local date-time, or an ISO 8601 instant with offset
// ---------------------------------------------------------------------------------------------

const BOUND = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(Z|[+-]\d{2}:\d{2})?)?$/;

export interface ParsedBound {
  /** `date`: local midnight in the timezone; `local`: a wall-clock time there; `instant`: carries its offset. */
  kind: 'date' | 'local' | 'instant';
  /** The written wall-clock time, as milliseconds since the epoch if it were UTC. */
  wall: number;
  /** Offset written in an instant, in minutes east of UTC; null for dates and local date-times. */
  offsetMinutes: number | null;
}

function wallMs(
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
  second: number,
  ms: number,
) {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, ms);
  return date.getTime();
}

function daysInMonth(year: number, month: number): number {
  return new Date(wallMs(year, month + 1, 0, 0, 0, 0, 0)).getUTCDate();
}

/** Parses a range bound; null when it is not one of the three forms or not a real calendar time. */
export function parseBound(value: string): ParsedBound | null {
  const match = BOUND.exec(value);
  if (!match) return null;
  const [, y, mo, d, h, mi, s, fraction, offset] = match;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h ?? 0);
  const minute = Number(mi ?? 0);
  const second = Number(s ?? 0);
  if (year < 1000 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  const ms = fraction ? Number(fraction.slice(0, 3).padEnd(3, '0')) : 0;
  let offsetMinutes: number | null = null;
  if (offset) {
    if (offset === 'Z') offsetMinutes = 0;
    else {
      const hours = Number(offset.slice(1, 3));
      const minutes = Number(offset.slice(4, 6));
      if (hours > 23 || minutes > 59) return null;
      offsetMinutes = (offset.startsWith('-') ? -1 : 1) * (hours * 60 + minutes);
    }
  }
  return {
    kind: h === undefined ? 'date' : offset ? 'instant' : 'local',
    wall: wallMs(year, month, day, hour, minute, second, ms),
    offsetMinutes,
  };
}

/** Offset of a time zone at an instant, in milliseconds east of UTC. */
export function zoneOffsetMs(instant: number, timeZone: string): number {
  const parts = zoneFormatter(timeZone).formatToParts(new Date(instant));
  const get = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value);
  const era = parts.find((p) => p.type === 'era')?.value;
  const year = era === 'BC' ? 1 - get('year') : get('year');
  const wall = wallMs(year, get('month'), get('day'), get('hour') % 24, get('minute'), get('second'), 0);
  return wall - (instant - (((instant % 1000) + 1000) % 1000));
}

/** The instant (epoch ms) a bound stands for in a time zone. Local times in a DST gap move forward. */
export function resolveBound(bound: ParsedBound, timeZone: string): number {
  if (bound.offsetMinutes !== null) return bound.wall - bound.offsetMinutes * 60_000;
  let instant = bound.wall - zoneOffsetMs(bound.wall, timeZone);
  const offset = zoneOffsetMs(instant, timeZone);
  if (bound.wall - instant !== offset) instant = bound.wall - offset;
  return instant;
}

/** The wall-clock time of a bound in a time zone (calendar days are counted on the wall clock). */
function wallIn(bound: ParsedBound, timeZone: string): number {
  if (bound.offsetMinutes === null) return bound.wall;
  const instant = resolveBound(bound, timeZone);
  return instant + zoneOffsetMs(instant, timeZone);
}

/**
 * Checks a range: `from` before `to`, and at most 366 days between them, counted on the wall clock of the
 * time zone (so a daylight-saving change does not make 366 calendar days too long). Returns the problem,
 * or null. The server calls it again after filling the defaults (`to` = now, `from` = `to` - 30 days).
 */
export function rangeProblem(from: string, to: string, timeZone: string): string | null {
  const start = parseBound(from);
  const end = parseBound(to);
  if (!start || !end || !isTimeZone(timeZone)) return null;
  if (resolveBound(end, timeZone) <= resolveBound(start, timeZone))
    return 'must be after the start of the range';
  if (wallIn(end, timeZone) - wallIn(start, timeZone) > ANALYTICS_MAX_RANGE_DAYS * DAY_MS) {
    return `a range is at most ${ANALYTICS_MAX_RANGE_DAYS} days`;
  }
  return null;
}

export const AnalyticsBound = z
  .string()
  .max(ANALYTICS_BOUND_MAX, { abort: true })
  .refine((value) => parseBound(value) !== null, {
    message:
      'must be YYYY-MM-DD, a local date-time (YYYY-MM-DDTHH:mm[:ss[.fff]]) or an ISO 8601 instant with offset',
  });

export const AnalyticsTimeZone = z
  .string()
  .max(ANALYTICS_TIMEZONE_MAX, { abort: true })
  .refine(isTimeZone, {
    error: (issue) =>
      `unknown time zone "${String(issue.input)}": must be an IANA time zone, for example Europe/Paris`,
  });

// ---------------------------------------------------------------------------------------------
// Filters (spec 4.10; the parameter names are ours)
// ---------------------------------------------------------------------------------------------

/** How a run was started (analytics adds `unknown` to the run sources). */
export const AnalyticsSource = z.enum(ANALYTICS_SOURCES).meta({ id: 'AnalyticsSource' });

/** `api_key:<key id>` or `member:<user id>`. */
export const CreatorFilter = z
  .string()
  .regex(CREATOR, {
    message: 'must be api_key:<key id> or member:<user id>',
  })
  .transform((value) => {
    const at = value.indexOf(':');
    return { kind: value.slice(0, at) as 'api_key' | 'member', id: value.slice(at + 1) };
  });

export const AnalyticsDimension = z.enum(ANALYTICS_DIMENSIONS).meta({ id: 'AnalyticsDimension' });
export type AnalyticsDimension = z.infer<typeof AnalyticsDimension>;

/**
 * The filters, each a comma list (max 4000 characters, up to 50 values) or the literal `none`, which
 * selects runs where the dimension is empty (no folder, no API key, no member).
 */
export const analyticsFilters = {
  capability: commaListOrNone(ToolKey).optional().meta({ description: 'Tool keys.' }),
  model: commaListOrNone(z.string().min(1).max(200)).optional().meta({ description: 'Model ids.' }),
  folder: commaListOrNone(z.uuid({ message: 'must be a folder id' }))
    .optional()
    .meta({ description: 'Folder ids; `none` means no folder.' }),
  api_key: commaListOrNone(KeyId)
    .optional()
    .meta({ description: 'Ids of the API key that started the run.' }),
  member: commaListOrNone(Uuid)
    .optional()
    .meta({ description: 'User ids of the person who started the run.' }),
  creator: commaListOrNone(CreatorFilter)
    .optional()
    .meta({ description: '`api_key:<id>` or `member:<id>`.' }),
  source: commaListOrNone(AnalyticsSource)
    .optional()
    .meta({ description: 'How the run was started: app, api, mcp, internal, unknown.' }),
  status: commaListOrNone(AnalyticsJobStatus).optional().meta({ description: 'Status of the charged job.' }),
};

export const COMPARE_MODES = ['previous_period', 'none'] as const;
export const CompareMode = z.enum(COMPARE_MODES).meta({
  id: 'CompareMode',
  description:
    '`previous_period`: the equal-length period right before `from`. Ignored with explicit bounds.',
});

const rangeShape = {
  from: AnalyticsBound.optional().meta({
    description: 'Range start, inclusive. Default: `to` minus 30 days.',
  }),
  to: AnalyticsBound.optional().meta({ description: 'Range end, exclusive. Default: now.' }),
  timezone: AnalyticsTimeZone.default(ANALYTICS_DEFAULT_TIMEZONE).meta({
    description: 'IANA time zone for date-only bounds and calendar buckets. Default `UTC`.',
  }),
  compare_from: AnalyticsBound.optional().meta({
    description: 'Explicit comparison start; send with `compare_to`.',
  }),
  compare_to: AnalyticsBound.optional().meta({
    description: 'Explicit comparison end (exclusive); send with `compare_from`.',
  }),
  format: z.enum(['json', 'csv']).optional().meta({
    description:
      'Answer as `csv` (text/csv, one row per figure row) instead of JSON; `Accept: text/csv` does the same.',
  }),
};

interface RangeFields {
  from?: string | undefined;
  to?: string | undefined;
  timezone: string;
  compare_from?: string | undefined;
  compare_to?: string | undefined;
}

/** The rules that span several parameters (spec 4.10). */
function checkRanges(query: RangeFields, ctx: z.core.$RefinementCtx<RangeFields>): void {
  const hasFrom = query.compare_from !== undefined;
  const hasTo = query.compare_to !== undefined;
  if (hasFrom !== hasTo) {
    ctx.addIssue({
      code: 'custom',
      message: 'compare_from and compare_to must be sent together',
      path: [hasFrom ? 'compare_to' : 'compare_from'],
    });
  }
  if (query.from !== undefined && query.to !== undefined) {
    const problem = rangeProblem(query.from, query.to, query.timezone);
    if (problem) ctx.addIssue({ code: 'custom', message: problem, path: ['to'] });
  }
  if (query.compare_from !== undefined && query.compare_to !== undefined) {
    const problem = rangeProblem(query.compare_from, query.compare_to, query.timezone);
    if (problem) ctx.addIssue({ code: 'custom', message: problem, path: ['compare_to'] });
  }
}

/**
 * `GET /analytics/summary` query. Where both bounds of a range are given the 366-day rule is checked here;
 * when a default fills one, the server checks the resolved range with `rangeProblem`.
 */
export const AnalyticsSummaryQuery = z
  .object({
    ...rangeShape,
    compare: CompareMode.default('previous_period'),
    ...analyticsFilters,
    include_balance: QueryBoolean.default(true).meta({
      description: 'Include the current balance. Default true.',
    }),
  })
  .superRefine(checkRanges);
export type AnalyticsSummaryQuery = z.infer<typeof AnalyticsSummaryQuery>;

export const ANALYTICS_BUCKETS = ['hour', 'day', 'week', 'month'] as const;
/** Groups a series may show apart (`group_by` with `limit`): a chart's worth, each a query of its own. */
export const TIMESERIES_GROUPS_MAX = 20;
export const AnalyticsBucket = z.enum(ANALYTICS_BUCKETS).meta({ id: 'AnalyticsBucket' });

export const AnalyticsTimeseriesQuery = z
  .object({
    ...rangeShape,
    compare: CompareMode.default('none'),
    ...analyticsFilters,
    bucket: AnalyticsBucket.default('day').meta({
      description: 'Calendar buckets in `timezone`; weeks start on Monday.',
    }),
    group_by: AnalyticsDimension.optional().meta({
      description:
        "Split each bucket by this dimension (a stacked chart in one request): the range's top `limit` values by spend, as the breakdown ranks them, then one `other` group with the rest.",
    }),
    limit: z.coerce
      .number()
      .int()
      .min(1)
      .max(TIMESERIES_GROUPS_MAX)
      .default(7)
      .meta({ description: 'With `group_by`: groups shown apart; the rest are summed into `other`.' }),
  })
  .superRefine(checkRanges);
export type AnalyticsTimeseriesQuery = z.infer<typeof AnalyticsTimeseriesQuery>;

export const AnalyticsBreakdownQuery = z
  .object({
    ...rangeShape,
    compare: CompareMode.default('none'),
    ...analyticsFilters,
    dimension: AnalyticsDimension,
    limit: z.coerce
      .number()
      .int()
      .min(1)
      .max(100)
      .default(20)
      .meta({ description: 'Top rows by spend; the rest are summed into one `other` row.' }),
  })
  .superRefine(checkRanges);
export type AnalyticsBreakdownQuery = z.infer<typeof AnalyticsBreakdownQuery>;

export const AnalyticsActivityQuery = z
  .object({
    ...rangeShape,
    compare: CompareMode.default('none'),
    ...analyticsFilters,
    ...PageQuery.shape,
  })
  .superRefine(checkRanges);
export type AnalyticsActivityQuery = z.infer<typeof AnalyticsActivityQuery>;

// ---------------------------------------------------------------------------------------------
// Responses (spec 2.10)
// ---------------------------------------------------------------------------------------------

const UtcInstant = z.iso.datetime().meta({ description: 'ISO 8601 UTC instant.' });
const Count = z.int().min(0);

const totalsShape = {
  spend_cents: SignedCents.meta({ description: 'Credits charged, net of refunds.' }),
  charges: Count.meta({ description: 'Ledger charges counted.' }),
  jobs: Count.meta({ description: 'Distinct charged jobs.' }),
  runs: Count.meta({ description: 'Runs started, charged or not.' }),
  unsuccessful_spend_cents: SignedCents.meta({ description: 'Spend on jobs that failed or were cancelled.' }),
  unattributed_spend_cents: SignedCents.meta({
    description: 'Spend with no job, key or member to attribute it to.',
  }),
};

export const AnalyticsTotals = z.object(totalsShape).meta({ id: 'AnalyticsTotals' });
export type AnalyticsTotals = z.infer<typeof AnalyticsTotals>;

const Change = z.object({
  delta: z.int().meta({ description: 'Current minus previous.' }),
  ratio: z.number().nullable().meta({ description: 'delta / previous; null when previous is 0.' }),
});
export const AnalyticsChange = z
  .object({
    spend_cents: Change,
    charges: Change,
    jobs: Change,
    runs: Change,
    unsuccessful_spend_cents: Change,
    unattributed_spend_cents: Change,
  })
  .meta({ id: 'AnalyticsChange' });

export const AnalyticsBalance = z
  .object({
    balance_cents: Cents.meta({ description: 'Credits available now.' }),
    held_cents: Cents.meta({ description: 'Credits held by unfinished jobs.' }),
    as_of: Timestamp,
  })
  .meta({ id: 'AnalyticsBalance' });

const AppliedFilter = z.union([z.literal(NONE), z.array(z.string())]);

/** The filters in force, normalised (creator values as `api_key:<id>` / `member:<id>`); absent = not filtered. */
export const AnalyticsAppliedFilters = z
  .object({
    capability: AppliedFilter.optional(),
    model: AppliedFilter.optional(),
    folder: AppliedFilter.optional(),
    api_key: AppliedFilter.optional(),
    member: AppliedFilter.optional(),
    creator: AppliedFilter.optional(),
    source: AppliedFilter.optional(),
    status: AppliedFilter.optional(),
  })
  .meta({ id: 'AnalyticsAppliedFilters' });

/** `meta` of every analytics answer (spec 2.10). `compare` is ours: the mode and the period it resolved to. */
export const AnalyticsMeta = z
  .object({
    definition_version: z.iso
      .date()
      .meta({ description: 'Date identifying the metric definitions in force.' }),
    from: UtcInstant,
    to: UtcInstant,
    timezone: z.string(),
    compare: z.object({
      mode: z.enum(['previous_period', 'none', 'custom']),
      from: UtcInstant.nullable(),
      to: UtcInstant.nullable(),
    }),
    filters: AnalyticsAppliedFilters,
    data_as_of: UtcInstant,
    money_unit: z.string().meta({ description: 'Credits in cents (our server sends `cents`).' }),
    time_basis: z.string().meta({
      description: 'Charges are counted when posted to the ledger (our server sends `ledger_posted_at`).',
    }),
    attribution_scope: z.enum(['full', 'self']).meta({
      description: '`self` for non-members of a team: other identities collapse into groups labelled other.',
    }),
  })
  .meta({ id: 'AnalyticsMeta' });
export type AnalyticsMeta = z.infer<typeof AnalyticsMeta>;

export const AnalyticsSummary = z
  .object({
    data: z.object({
      ...totalsShape,
      previous: AnalyticsTotals.nullable().meta({ description: 'Null when there is no comparison.' }),
      change: AnalyticsChange.nullable().meta({ description: 'Null when there is no comparison.' }),
      balance: AnalyticsBalance.nullable().meta({
        description: 'Null when not requested or not applicable.',
      }),
    }),
    meta: AnalyticsMeta,
  })
  .meta({ id: 'AnalyticsSummary' });
export type AnalyticsSummary = z.infer<typeof AnalyticsSummary>;

/** One group of a grouped series: a value of the dimension (null: runs without one), or the rest. */
export const AnalyticsSeriesGroup = z
  .object({
    key: z.string().nullable().meta({ description: 'The dimension value; null for none and for other.' }),
    label: z.string(),
    other: z.boolean().meta({ description: 'True for the group that sums the rest.' }),
  })
  .meta({ id: 'AnalyticsSeriesGroup' });
export type AnalyticsSeriesGroup = z.infer<typeof AnalyticsSeriesGroup>;

const AnalyticsSeriesGroupTotals = z
  .object({ key: z.string().nullable(), other: z.boolean(), ...totalsShape })
  .meta({ id: 'AnalyticsSeriesGroupTotals' });

export const AnalyticsTimeseries = z
  .object({
    data: z.array(
      z.object({
        start: UtcInstant,
        end: UtcInstant,
        ...totalsShape,
        previous: AnalyticsTotals.nullable().meta({
          description: 'The same bucket of the comparison period; null without comparison.',
        }),
        groups: z.array(AnalyticsSeriesGroupTotals).optional().meta({
          description:
            'With `group_by`: the bucket per group, in the order of `meta.groups`; they add up to the bucket.',
        }),
      }),
    ),
    meta: AnalyticsMeta.extend({
      bucket: AnalyticsBucket,
      group_by: AnalyticsDimension.nullable().meta({ description: 'Null without `group_by`.' }),
      groups: z.array(AnalyticsSeriesGroup).meta({
        description:
          'With `group_by`: the top values over the whole range, highest spend first, then `other` when anything is left; empty without.',
      }),
    }),
  })
  .meta({ id: 'AnalyticsTimeseries' });
export type AnalyticsTimeseries = z.infer<typeof AnalyticsTimeseries>;

export const AnalyticsBreakdown = z
  .object({
    data: z.array(
      z.object({
        key: z.string().nullable().meta({ description: 'The dimension value; null for none and for other.' }),
        label: z.string(),
        other: z
          .boolean()
          .meta({ description: 'True for the row that groups the rest (or other identities).' }),
        ...totalsShape,
        share: z.number().min(0).max(1).meta({ description: 'Share of the total spend.' }),
        previous: AnalyticsTotals.nullable(),
      }),
    ),
    meta: AnalyticsMeta.extend({ dimension: AnalyticsDimension }),
  })
  .meta({ id: 'AnalyticsBreakdown' });
export type AnalyticsBreakdown = z.infer<typeof AnalyticsBreakdown>;

export const AnalyticsActivityItem = z
  .object({
    job_id: z.string().nullable(),
    created_at: UtcInstant,
    tool: ToolKey.nullable(),
    model: z.string().nullable(),
    status: AnalyticsJobStatus,
    source: AnalyticsSource,
    creator: z.string().nullable().meta({ description: '`api_key:<id>`, `member:<id>`, or `other`.' }),
    folder_id: z.string().nullable(),
    api_key_id: z.string().nullable(),
    member_id: z.string().nullable(),
    spend_cents: SignedCents,
    charges: Count,
  })
  .meta({ id: 'AnalyticsActivityItem' });

export const AnalyticsActivity = z
  .object({
    data: z.array(AnalyticsActivityItem),
    meta: AnalyticsMeta.extend({ next_cursor: z.string().nullable() }),
  })
  .meta({ id: 'AnalyticsActivity' });
export type AnalyticsActivity = z.infer<typeof AnalyticsActivity>;

// ---------------------------------------------------------------------------------------------
// Endpoints
// ---------------------------------------------------------------------------------------------

const ANALYTICS_ERRORS = ['invalid_request', 'rate_limited'] as const;

export const getAnalyticsSummary = defineEndpoint({
  operationId: 'getAnalyticsSummary',
  method: 'GET',
  path: '/v2/analytics/summary',
  host: 'api',
  tag: 'Analytics',
  summary: 'Spend summary',
  description:
    'Totals for a range, a comparison period (the previous period by default) and the current balance. A range is at most 366 days.',
  auth: 'any',
  query: AnalyticsSummaryQuery,
  responses: { 200: { description: 'The summary.', schema: AnalyticsSummary } },
  errors: ANALYTICS_ERRORS,
});

export const getAnalyticsTimeseries = defineEndpoint({
  operationId: 'getAnalyticsTimeseries',
  method: 'GET',
  path: '/v2/analytics/timeseries',
  host: 'api',
  tag: 'Analytics',
  summary: 'Spend over time',
  description:
    'The summary metrics per calendar bucket of `timezone`, with the same filters. No comparison by default. With `group_by`, each bucket is also split by that dimension: its top `limit` values over the range (ranked as the breakdown ranks them) and one `other` group, which add up to the bucket.',
  auth: 'any',
  query: AnalyticsTimeseriesQuery,
  responses: { 200: { description: 'The series, oldest bucket first.', schema: AnalyticsTimeseries } },
  errors: ANALYTICS_ERRORS,
});

export const getAnalyticsBreakdown = defineEndpoint({
  operationId: 'getAnalyticsBreakdown',
  method: 'GET',
  path: '/v2/analytics/breakdown',
  host: 'api',
  tag: 'Analytics',
  summary: 'Spend by one dimension',
  description: 'Rows by spend, highest first, with the same filters. No comparison by default.',
  auth: 'any',
  query: AnalyticsBreakdownQuery,
  responses: { 200: { description: 'The rows.', schema: AnalyticsBreakdown } },
  errors: ANALYTICS_ERRORS,
});

export const getAnalyticsActivity = defineEndpoint({
  operationId: 'getAnalyticsActivity',
  method: 'GET',
  path: '/v2/analytics/activity',
  host: 'api',
  tag: 'Analytics',
  summary: 'Recent activity',
  description: 'Charged runs in the range, newest first, with the same filters; paged by `cursor`.',
  auth: 'any',
  query: AnalyticsActivityQuery,
  responses: { 200: { description: 'The runs.', schema: AnalyticsActivity } },
  errors: ANALYTICS_ERRORS,
});
