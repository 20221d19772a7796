import { describe, expect, it } from 'vitest';
import type { AnalyticsBreakdown, AnalyticsDimension } from '../../../../contract/analytics.ts';
import { analyticsMeta } from '../../../testing/analytics-meta.ts';
import { REST_LABEL, whatChanged } from './what-changed.ts';

type Row = AnalyticsBreakdown['data'][number];

const TOTALS = { charges: 1, jobs: 1, runs: 1, unsuccessful_spend_cents: 0, unattributed_spend_cents: 0 };

/** A breakdown row with its spend now and in the comparison period. */
function row(key: string | null, spend: number, previous: number, other = false): Row {
  return {
    key,
    label: other ? 'Other' : (key ?? 'None'),
    other,
    spend_cents: spend,
    ...TOTALS,
    share: 0,
    previous: { spend_cents: previous, ...TOTALS },
  };
}

function breakdown(dimension: AnalyticsDimension, rows: Row[]): AnalyticsBreakdown {
  return { data: rows, meta: { ...analyticsMeta(), dimension } };
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

describe('what changed between two periods, in one dimension', () => {
  it('gives shares of all movement that add up to 100%, even when values move both ways', () => {
    // Net +100, but Image +500 and Video −400: a share of the net change would be 500% and −400%.
    const changed = whatChanged(
      breakdown('capability', [row('image', 900, 400), row('video', 100, 500), row('speech', 50, 50)]),
    );
    expect(changed.movements.map((m) => [m.value, m.delta])).toEqual([
      ['image', 500],
      ['video', -400],
    ]);
    expect(changed.movements.map((m) => m.share)).toEqual([500 / 900, 400 / 900]);
    expect(changed).toMatchObject({ net: 100, rise: 500, fall: 400 });
    for (const m of changed.movements) expect(m.share).toBeLessThanOrEqual(1);
  });

  it('counts a value that appeared or disappeared, `none`, and the server’s "other" row, so deltas add up to the change', () => {
    const changed = whatChanged(
      breakdown('folder', [
        row('f-new', 300, 0),
        row('f-old', 0, 200),
        row(null, 50, 100),
        row(null, 30, 10, true),
      ]),
    );
    expect(changed.movements.map((m) => [m.value, m.label, m.delta])).toEqual([
      ['f-new', 'f-new', 300],
      ['f-old', 'f-old', -200],
      ['none', 'None', -50],
      [null, 'Other', 20],
    ]);
    expect(changed.net).toBe(300 - 200 - 50 + 20);
    expect(sum(changed.movements.map((m) => m.delta))).toBe(changed.net);
    expect(sum(changed.movements.map((m) => m.share))).toBeCloseTo(1);
  });

  it('keeps the largest movements up to the limit and sums the rest into one row, still 100% in all', () => {
    const rows = Array.from({ length: 12 }, (_, i) => row(`m${i}`, 100 + i * 10, 100));
    const changed = whatChanged(breakdown('model', rows), 3);
    expect(changed.movements.map((m) => m.value)).toEqual(['m11', 'm10', 'm9', null]);
    expect(changed.movements.at(-1)).toMatchObject({
      label: REST_LABEL,
      delta: sum([10, 20, 30, 40, 50, 60, 70, 80]),
    });
    expect(sum(changed.movements.map((m) => m.share))).toBeCloseTo(1);
    expect(sum(changed.movements.map((m) => m.delta))).toBe(changed.net);
  });

  it('has nothing to list when spend did not move', () => {
    const changed = whatChanged(breakdown('source', [row('api', 200, 200), row('app', 0, 0)]));
    expect(changed.movements).toEqual([]);
    expect(changed).toMatchObject({ net: 0, rise: 0, fall: 0 });
  });
});
