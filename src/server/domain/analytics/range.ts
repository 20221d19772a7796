import {
  ANALYTICS_DEFAULT_RANGE_DAYS,
  type ParsedBound,
  parseBound,
  rangeProblem,
  resolveBound,
  zoneOffsetMs,
} from '../../../contract/analytics.ts';
import { AppError } from '../../errors.ts';

const DAY_MS = 86_400_000;

/** The period a query covers, and the one it is compared with: UTC instants, `to` exclusive. */
export interface QueryInstants {
  from: Date;
  to: Date;
  timezone: string;
  compare: { mode: 'previous_period' | 'none' | 'custom'; from: Date | null; to: Date | null };
}

export interface RangeQuery {
  from?: string | undefined;
  to?: string | undefined;
  timezone: string;
  compare: 'previous_period' | 'none';
  compare_from?: string | undefined;
  compare_to?: string | undefined;
}

function invalid(field: string, message: string): AppError {
  return new AppError('invalid_request', `Invalid request: query.${field}: ${message}`, {
    status: 422,
    details: { fields: [{ field: `query.${field}`, message, code: 'custom' }] },
  });
}

/** The wall-clock time (ms, as if UTC) of an instant in a time zone. */
function wallOf(instant: number, timeZone: string): number {
  return instant + zoneOffsetMs(instant, timeZone);
}

/** The instant of a wall-clock time in a time zone (a time in a daylight-saving gap moves forward). */
function instantOfWall(wall: number, timeZone: string): number {
  const bound: ParsedBound = { kind: 'local', wall, offsetMinutes: null };
  return resolveBound(bound, timeZone);
}

function isoOf(instant: number): string {
  return new Date(instant).toISOString();
}

/**
 * The UTC instants an analytics query covers. (The console's `resolveRange` in
 * web/routes/-components/analytics/date-range.ts is another rule: it turns a preset such as `7d` into
 * the calendar dates it sends here as `from` and `to`.)
 *
 * Resolves `from`/`to` with their defaults (`to` now, `from` 30 calendar days before `to` on the wall
 * clock of the time zone), checks the 366-day rule on the resolved range, and resolves the comparison:
 * explicit bounds win; `previous_period` is the same wall-clock length right before `from` (so day
 * buckets of both periods start at local midnights, even across a daylight-saving change).
 */
export function resolveQueryInstants(query: RangeQuery, now: number): QueryInstants {
  const tz = query.timezone;
  const toBound = query.to !== undefined ? parseBound(query.to) : null;
  const to = toBound ? resolveBound(toBound, tz) : now;
  const fromBound = query.from !== undefined ? parseBound(query.from) : null;
  const from = fromBound
    ? resolveBound(fromBound, tz)
    : instantOfWall(wallOf(to, tz) - ANALYTICS_DEFAULT_RANGE_DAYS * DAY_MS, tz);
  const problem = rangeProblem(query.from ?? isoOf(from), query.to ?? isoOf(to), tz);
  if (problem) throw invalid(query.to !== undefined ? 'to' : 'from', problem);

  let compare: QueryInstants['compare'];
  if (query.compare_from !== undefined && query.compare_to !== undefined) {
    // The contract checked both bounds and their range; they parse.
    compare = {
      mode: 'custom',
      from: new Date(resolveBound(parseBound(query.compare_from)!, tz)),
      to: new Date(resolveBound(parseBound(query.compare_to)!, tz)),
    };
  } else if (query.compare === 'previous_period') {
    const length = wallOf(to, tz) - wallOf(from, tz);
    compare = {
      mode: 'previous_period',
      from: new Date(instantOfWall(wallOf(from, tz) - length, tz)),
      to: new Date(from),
    };
  } else {
    compare = { mode: 'none', from: null, to: null };
  }
  return { from: new Date(from), to: new Date(to), timezone: tz, compare };
}
