import { describe, expect, it } from 'vitest';
import type { AnalyticsBreakdown } from '../../../../contract/analytics.ts';
import { whatChanged } from './what-changed.ts';

type Row = AnalyticsBreakdown['data'][number];

function row(key: string | null, spend: number, other = false): Row {
  return {
    key,
    label: other ? 'Other' : (key ?? 'None'),
    other,
    spend_cents: spend,
    charges: 1,
    jobs: 1,
    runs: 1,
    unsuccessful_spend_cents: 0,
    unattributed_spend_cents: 0,
    share: 0,
    previous: null,
  };
}

describe('what changed between two periods', () => {
  it('ranks values by how much they moved, with their share of the total change', () => {
    // Total 1000 → 1600: image +500, video +200, speech −100.
    const result = whatChanged(
      [
        {
          dimension: 'capability',
          current: [row('image', 900), row('video', 500), row('speech', 200)],
          previous: [row('image', 400), row('video', 300), row('speech', 300)],
        },
      ],
      600,
    );
    expect(result.map((c) => [c.value, c.delta])).toEqual([
      ['image', 500],
      ['video', 200],
      ['speech', -100],
    ]);
    expect(result[0]?.share).toBeCloseTo(500 / 600);
    expect(result[2]?.share).toBeCloseTo(-100 / 600);
    expect(result[0]).toMatchObject({ current: 900, previous: 400, label: 'image' });
  });

  it('counts a value that appeared or disappeared, and `none` as a value of its own', () => {
    const result = whatChanged(
      [
        {
          dimension: 'folder',
          current: [row('f-new', 300), row(null, 50)],
          previous: [row('f-old', 200), row(null, 100)],
        },
      ],
      50,
    );
    expect(result).toEqual([
      expect.objectContaining({ value: 'f-new', delta: 300, previous: 0 }),
      expect.objectContaining({ value: 'f-old', delta: -200, current: 0 }),
      expect.objectContaining({ value: 'none', delta: -50 }),
    ]);
  });

  it('leaves out the "other" rows and values that did not move, and mixes dimensions', () => {
    const result = whatChanged(
      [
        {
          dimension: 'capability',
          current: [row('image', 100), row(null, 999, true)],
          previous: [row('image', 100)],
        },
        { dimension: 'model', current: [row('flux', 300)], previous: [row('flux', 100), row(null, 5, true)] },
      ],
      200,
    );
    expect(result).toEqual([
      expect.objectContaining({ dimension: 'model', value: 'flux', delta: 200, share: 1 }),
    ]);
  });

  it('has no share when the total did not move, and keeps the largest moves up to the limit', () => {
    const result = whatChanged(
      [
        {
          dimension: 'source',
          current: [row('api', 200), row('app', 0), row('mcp', 10)],
          previous: [row('api', 0), row('app', 200), row('mcp', 0)],
        },
      ],
      0,
      2,
    );
    expect(result).toHaveLength(2);
    expect(result.map((c) => c.share)).toEqual([null, null]);
    expect(result.map((c) => Math.abs(c.delta))).toEqual([200, 200]);
  });
});
