import type { LatencyPercentiles } from '../../../contract/analytics-performance.ts';

/*
 * The performance rollup's latency histograms (migration 028): fixed log-scale buckets, bucket 0 for
 * [0, 1) ms and bucket b ≥ 1 for [1.1^(b-1), 1.1^b) ms, so histograms of any hours, days and months
 * add up. A percentile is read the way percentile_cont reads sorted samples (interpolating between the
 * two closest ranks), with each rank's sample replaced by its bucket's geometric middle: that stands
 * within √1.1 − 1 ≈ 4.88% of the sample (0.5 ms in bucket 0), and an interpolation of two such values
 * within the same share of the exact percentile, plus 0.5 ms.
 */

const RATIO = 1.1;

/** The value a bucket stands for. */
export function bucketValue(bucket: number): number {
  return bucket === 0 ? 0.5 : RATIO ** (bucket - 0.5);
}

/** A histogram: bucket number → samples. */
export type Histogram = Map<number, number>;

export function addTo(h: Histogram, bucket: number, n: number): void {
  h.set(bucket, (h.get(bucket) ?? 0) + n);
}

/** p50/p90/p99 of a histogram, null when it is empty. */
export function histogramPercentiles(h: Histogram | undefined): LatencyPercentiles | null {
  if (!h) return null;
  const buckets = [...h].filter(([, n]) => n > 0).sort((a, b) => a[0] - b[0]);
  const samples = buckets.reduce((sum, [, n]) => sum + n, 0);
  if (samples === 0) return null;
  // The value of the sample at a 0-based rank.
  const at = (rank: number): number => {
    let seen = 0;
    for (const [bucket, n] of buckets) {
      seen += n;
      if (rank < seen) return bucketValue(bucket);
    }
    return bucketValue(buckets[buckets.length - 1]![0]);
  };
  const percentile = (fraction: number) => {
    const position = fraction * (samples - 1);
    const low = Math.floor(position);
    const lowValue = at(low);
    return lowValue + (at(Math.ceil(position)) - lowValue) * (position - low);
  };
  return { samples, p50_ms: percentile(0.5), p90_ms: percentile(0.9), p99_ms: percentile(0.99) };
}

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

export interface Interval {
  from: Date;
  to: Date;
}

/** A period cut into whole UTC months, days and hours read from the rollup, and the rest read from jobs. */
export interface GrainSplit {
  month: Date[];
  day: Date[];
  hour: Date[];
  /** Disjoint intervals, in order, each within one UTC hour or across cut hours. */
  raw: Interval[];
}

function nextMonth(t: number): number {
  const d = new Date(t);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}

function isMonthStart(t: number): boolean {
  const d = new Date(t);
  return t % DAY_MS === 0 && d.getUTCDate() === 1;
}

/**
 * Each bucket [edges[i], edges[i+1]) covered by the fewest rollup rows: whole months where they fit,
 * then whole days, then whole hours, the rest (a bound or edge off the hour) read from jobs. Every unit
 * lies inside one bucket, so a rollup row's start says its bucket.
 */
export function splitByGrains(edges: Date[]): GrainSplit {
  const out: GrainSplit = { month: [], day: [], hour: [], raw: [] };
  const raw = (from: number, to: number) => {
    const previous = out.raw[out.raw.length - 1];
    if (previous && previous.to.getTime() === from) previous.to = new Date(to);
    else out.raw.push({ from: new Date(from), to: new Date(to) });
  };
  for (let i = 0; i + 1 < edges.length; i++) {
    let t = edges[i]!.getTime();
    const end = edges[i + 1]!.getTime();
    while (t < end) {
      if (isMonthStart(t) && nextMonth(t) <= end) {
        out.month.push(new Date(t));
        t = nextMonth(t);
      } else if (t % DAY_MS === 0 && t + DAY_MS <= end) {
        out.day.push(new Date(t));
        t += DAY_MS;
      } else if (t % HOUR_MS === 0 && t + HOUR_MS <= end) {
        out.hour.push(new Date(t));
        t += HOUR_MS;
      } else {
        const next = Math.min(Math.floor(t / HOUR_MS) * HOUR_MS + HOUR_MS, end);
        raw(t, next);
        t = next;
      }
    }
  }
  return out;
}
