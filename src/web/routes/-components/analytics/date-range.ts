import { ANALYTICS_MAX_RANGE_DAYS } from '../../../../contract/values.ts';

/* Calendar ranges of the analytics page, as plain dates (YYYY-MM-DD) read in the chosen timezone. */

export const RANGE_PRESETS = [
  'today',
  '7d',
  '30d',
  '90d',
  'mtd',
  'this_month',
  'last_month',
  'this_quarter',
  'last_quarter',
  'this_year',
  'last_year',
  '12m',
  'custom',
] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number];

/** Names that say what a preset covers; the options add the days themselves (range-controls.tsx). */
export const PRESET_LABELS: Record<RangePreset, string> = {
  today: 'Today',
  '7d': 'Last 7 days',
  '30d': 'Last 30 days',
  '90d': 'Last 90 days',
  mtd: 'Month to date',
  this_month: 'This month',
  last_month: 'Last month',
  this_quarter: 'This quarter',
  last_quarter: 'Last quarter',
  this_year: 'This year',
  last_year: 'Last year',
  '12m': '12 months to date',
  custom: 'Custom',
};

export type Bucket = 'hour' | 'day' | 'week' | 'month';

export interface ResolvedRange {
  /** First day, inclusive: the server reads a date alone as local midnight in the timezone. */
  from: string;
  /** The day after the last one (the API's `to` is exclusive). */
  to: string;
  /** Last day shown, inclusive. */
  lastDay: string;
  days: number;
}

const DAY_MS = 86_400_000;

function toDate(day: string): number {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return Date.UTC(year, month - 1, date);
}

function fromDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export function addDays(day: string, days: number): string {
  return fromDate(toDate(day) + days * DAY_MS);
}

/** Days from `from` to `to` (exclusive end), counted on the calendar. */
export function daysBetween(from: string, to: string): number {
  return Math.round((toDate(to) - toDate(from)) / DAY_MS);
}

function monthStart(day: string, monthsBack: number): string {
  const [year, month] = day.split('-').map(Number) as [number, number];
  return fromDate(Date.UTC(year, month - 1 - monthsBack, 1));
}

function quarterStart(day: string, quartersBack: number): string {
  const month = Number(day.slice(5, 7)) - 1;
  return monthStart(day, (month % 3) + 3 * quartersBack);
}

function yearStart(day: string, yearsBack: number): string {
  return `${Number(day.slice(0, 4)) - yearsBack}-01-01`;
}

/** The same day `months` later (earlier when negative), kept inside a shorter month: Mar 31 − 1 → Feb 28. */
export function shiftMonths(day: string, months: number): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const lastOfTarget = new Date(Date.UTC(year, month - 1 + months + 1, 0)).getUTCDate();
  return fromDate(Date.UTC(year, month - 1 + months, Math.min(date, lastOfTarget)));
}

/** The calendar date an instant falls on in a timezone. */
export function todayIn(timeZone: string, now: Date): string {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(now);
  const get = (type: string) => parts.find((part) => part.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')}`;
}

/** Why a custom range (inclusive days) cannot be asked for, or null when it can. */
export function customRangeProblem(from: string | undefined, lastDay: string | undefined): string | null {
  if (!from || !lastDay) return 'Choose a first and a last day.';
  const days = daysBetween(from, lastDay) + 1;
  if (days < 1) return 'The last day must not be before the first.';
  if (days > ANALYTICS_MAX_RANGE_DAYS) return `A range is at most ${ANALYTICS_MAX_RANGE_DAYS} days.`;
  return null;
}

/** A range from its first day and its exclusive end. */
export function span(from: string, to: string): ResolvedRange {
  return { from, to, lastDay: addDays(to, -1), days: daysBetween(from, to) };
}

/**
 * The days a preset covers in a timezone at `now` (docs/console.md lists them). Rolling presets and the
 * "to date" ones end with today, so today's spend shows; "this month/quarter/year" are whole calendar
 * periods, the days still ahead empty; "12 months to date" starts on the first day of the month eleven
 * months back, so each month bucket is a calendar month (335 to 366 days). A custom range that cannot
 * be asked for falls back to the last 30 days.
 */
export function resolveRange(
  preset: RangePreset,
  timeZone: string,
  now: Date,
  custom: { from?: string | undefined; to?: string | undefined } = {},
): ResolvedRange {
  const today = todayIn(timeZone, now);
  const tomorrow = addDays(today, 1);
  switch (preset) {
    case 'today':
      return span(today, tomorrow);
    case '7d':
      return span(addDays(today, -6), tomorrow);
    case '90d':
      return span(addDays(today, -89), tomorrow);
    case 'mtd':
      return span(monthStart(today, 0), tomorrow);
    case 'this_month':
      return span(monthStart(today, 0), monthStart(today, -1));
    case 'last_month':
      return span(monthStart(today, 1), monthStart(today, 0));
    case 'this_quarter':
      return span(quarterStart(today, 0), quarterStart(today, -1));
    case 'last_quarter':
      return span(quarterStart(today, 1), quarterStart(today, 0));
    case 'this_year':
      return span(yearStart(today, 0), yearStart(today, -1));
    case 'last_year':
      return span(yearStart(today, 1), yearStart(today, 0));
    case '12m':
      return span(monthStart(today, 11), tomorrow);
    case 'custom':
      if (custom.from && custom.to && !customRangeProblem(custom.from, custom.to)) {
        return span(custom.from, addDays(custom.to, 1));
      }
      return span(addDays(today, -29), tomorrow);
    default:
      return span(addDays(today, -29), tomorrow);
  }
}

/** A bucket that gives a readable number of bars: hours for a day or two, months for long ranges. */
export function bucketFor(days: number): Bucket {
  if (days <= 2) return 'hour';
  if (days <= 62) return 'day';
  if (days <= 200) return 'week';
  return 'month';
}

/** The days (first and last, inclusive) an answer's UTC instants cover in its timezone; `to` is exclusive. */
export function daysOfInstants(from: string, to: string, timeZone: string): { first: string; last: string } {
  return {
    first: todayIn(timeZone, new Date(from)),
    last: todayIn(timeZone, new Date(Date.parse(to) - 1)),
  };
}
