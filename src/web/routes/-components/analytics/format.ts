import type { AnalyticsMeta } from '../../../../contract/analytics.ts';
import type { Bucket } from '../../../queries/analytics.ts';
import { daysOfInstants } from './date-range.ts';

/* How analytics numbers and buckets read on screen (amounts go through format/credits.ts). */

const count = new Intl.NumberFormat('en-US');
const percent = new Intl.NumberFormat('en-US', { style: 'percent', maximumFractionDigits: 1 });
const signedPercent = new Intl.NumberFormat('en-US', {
  style: 'percent',
  maximumFractionDigits: 1,
  signDisplay: 'exceptZero',
});

export const formatCount = (value: number) => count.format(value);
export const formatShare = (value: number) => percent.format(value);
export const formatChangeRatio = (ratio: number) => signedPercent.format(ratio);

const BUCKET_FORMATS: Record<Bucket, Intl.DateTimeFormatOptions> = {
  hour: { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' },
  day: { month: 'short', day: 'numeric' },
  week: { month: 'short', day: 'numeric' },
  month: { month: 'short', year: 'numeric' },
};

/** A bucket's start as a label in the view's timezone ("Nov 24", "Week of Nov 24", "Nov 2026"). */
export function formatBucket(start: string, bucket: Bucket, timeZone: string): string {
  const text = new Intl.DateTimeFormat('en-US', { ...BUCKET_FORMATS[bucket], timeZone }).format(
    new Date(start),
  );
  return bucket === 'week' ? `Week of ${text}` : text;
}

const fullDay = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' });
const dayInYear = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });

/** "Nov 1 – Nov 24, 2026" (the year once when both days share it), "Dec 1, 2025 – Nov 27, 2026": inclusive days. */
export function formatDays(first: string, last: string): string {
  const end = fullDay.format(new Date(`${last}T00:00:00Z`));
  if (first === last) return end;
  const sameYear = first.slice(0, 4) === last.slice(0, 4);
  return `${(sameYear ? dayInYear : fullDay).format(new Date(`${first}T00:00:00Z`))} – ${end}`;
}

/**
 * An answer's period and its comparison period as days in its timezone, written by `write` (words for the
 * page by default; the CSV writes ISO days); null comparison without one.
 */
export function periodsOf(
  meta: AnalyticsMeta,
  write: (first: string, last: string) => string = formatDays,
): { current: string; previous: string | null } {
  const current = daysOfInstants(meta.from, meta.to, meta.timezone);
  const previous =
    meta.compare.from && meta.compare.to
      ? daysOfInstants(meta.compare.from, meta.compare.to, meta.timezone)
      : null;
  return {
    current: write(current.first, current.last),
    previous: previous ? write(previous.first, previous.last) : null,
  };
}
