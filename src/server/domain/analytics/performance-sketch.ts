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
