import { describe, expect, it } from 'vitest';
import type { AnalyticsTimeseries } from '../../contract/analytics.ts';
import { analyticsMeta } from '../testing/analytics-meta.ts';
import { OTHER_SERIES, stackedOf } from './analytics.ts';

const META = analyticsMeta({ from: '2026-11-01T00:00:00.000Z', to: '2026-11-03T00:00:00.000Z' });

const totals = (spend: number) => ({
  spend_cents: spend,
  charges: 0,
  jobs: 0,
  runs: 0,
  unsuccessful_spend_cents: 0,
  unattributed_spend_cents: 0,
});

type Group = { key: string | null; label: string; other: boolean };
const IMAGE: Group = { key: 'image', label: 'Image', other: false };
const VIDEO: Group = { key: 'video', label: 'Video', other: false };
const NONE: Group = { key: null, label: 'No tool', other: false };
const OTHER: Group = { key: null, label: 'Other', other: true };

/** A day series grouped by the server: each bucket's spend per group, in the order of `groups`. */
function grouped(groups: Group[], ...days: number[][]): AnalyticsTimeseries {
  return {
    data: days.map((spends, day) => ({
      start: `2026-11-0${day + 1}T00:00:00.000Z`,
      end: `2026-11-0${day + 2}T00:00:00.000Z`,
      ...totals(spends.reduce((a, b) => a + b, 0)),
      previous: null,
      groups: groups.map((g, at) => ({ key: g.key, other: g.other, ...totals(spends[at] ?? 0) })),
    })),
    meta: { ...META, bucket: 'day', group_by: 'capability', groups },
  };
}

describe('spend stacked by a dimension, from one grouped series', () => {
  it('draws a series per group in the server’s order, "Other" last, each bucket adding up to its total', () => {
    const stacked = stackedOf(grouped([IMAGE, VIDEO, OTHER], [60, 30, 10], [10, 40, 0]));
    expect(stacked.series).toEqual([
      { id: 'image', label: 'Image', value: 'image' },
      { id: 'video', label: 'Video', value: 'video' },
      { id: OTHER_SERIES, label: 'Other', value: null },
    ]);
    expect(stacked.buckets.map((b) => b.spend)).toEqual([
      { image: 60, video: 30, [OTHER_SERIES]: 10 },
      { image: 10, video: 40, [OTHER_SERIES]: 0 },
    ]);
    expect(stacked.buckets.map((b) => b.total)).toEqual([100, 50]);
    expect(stacked.meta.bucket).toBe('day');
  });

  it('leaves out a group that spent nothing in the range, and keeps runs without a value as "none"', () => {
    const stacked = stackedOf(grouped([IMAGE, VIDEO, NONE], [20, 0, 3], [50, 0, 0]));
    expect(stacked.series.map((s) => s.id)).toEqual(['image', 'none']);
    expect(stacked.series[1]).toEqual({ id: 'none', label: 'No tool', value: 'none' });
    expect(stacked.buckets[0]!.spend).toEqual({ image: 20, none: 3 });
  });
});
