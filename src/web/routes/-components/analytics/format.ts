import type { Bucket } from '../../../queries/analytics.ts';

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

/** "Nov 1, 2026 – Nov 24, 2026" for inclusive days. */
export function formatDays(first: string, last: string): string {
  const format = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' });
  const a = format.format(new Date(`${first}T00:00:00Z`));
  return first === last ? a : `${a} – ${format.format(new Date(`${last}T00:00:00Z`))}`;
}
