import { describe, expect, it } from 'vitest';
import type { AnalyticsTimeseries } from '../../contract/analytics.ts';
import { analyticsMeta } from '../testing/analytics-meta.ts';
import { OTHER_SERIES, STACK_LIMIT, stackBuckets, stackSeriesOf } from './analytics.ts';

const META = analyticsMeta({ from: '2026-11-01T00:00:00.000Z', to: '2026-11-03T00:00:00.000Z' });

/** A day series with these spends (the other figures do not matter to the stack). */
function series(...spends: number[]): AnalyticsTimeseries {
  return {
    data: spends.map((spend, day) => ({
      start: `2026-11-0${day + 1}T00:00:00.000Z`,
      end: `2026-11-0${day + 2}T00:00:00.000Z`,
      spend_cents: spend,
      charges: 0,
      jobs: 0,
      runs: 0,
      unsuccessful_spend_cents: 0,
      unattributed_spend_cents: 0,
      previous: null,
    })),
    meta: { ...META, bucket: 'day' },
  };
}

const IMAGE = { id: 'image', label: 'image', value: 'image' };
const VIDEO = { id: 'video', label: 'video', value: 'video' };

describe('spend stacked by a dimension', () => {
  it('puts each value beside the total, and what the values leave as "Other", so bars add up to the total', () => {
    const stacked = stackBuckets(series(100, 50), [IMAGE, VIDEO], [series(60, 10), series(30, 40)]);
    expect(stacked.buckets.map((b) => b.spend)).toEqual([
      { image: 60, video: 30, [OTHER_SERIES]: 10 },
      { image: 10, video: 40, [OTHER_SERIES]: 0 },
    ]);
    expect(stacked.buckets.map((b) => b.total)).toEqual([100, 50]);
    expect(stacked.series.map((s) => s.id)).toEqual(['image', 'video', OTHER_SERIES]);
  });

  it('has no "Other" series when the values shown cover every bucket', () => {
    const stacked = stackBuckets(series(70, 0), [IMAGE, VIDEO], [series(20, 0), series(50, 0)]);
    expect(stacked.series.map((s) => s.id)).toEqual(['image', 'video']);
    expect(stacked.meta.bucket).toBe('day');
  });

  it('stacks the values with the most spend from the long breakdown: at most 7, never "other" or a value without spend', () => {
    const row = (key: string | null, spend: number, other = false) => ({
      key,
      label: key ?? 'Other',
      other,
      spend_cents: spend,
      charges: 1,
      jobs: 1,
      runs: 1,
      unsuccessful_spend_cents: 0,
      unattributed_spend_cents: 0,
      share: 0,
      previous: null,
    });
    const rows = [
      ...Array.from({ length: 9 }, (_, i) => row(`tool-${i}`, 100 - i)),
      row('gone', 0),
      row(null, 50, true),
    ];
    const series = stackSeriesOf({ data: rows, meta: { ...META, dimension: 'capability' } });
    expect(series).toHaveLength(STACK_LIMIT);
    expect(series.map((s) => s.id)).toEqual(Array.from({ length: 7 }, (_, i) => `tool-${i}`));
  });
});
