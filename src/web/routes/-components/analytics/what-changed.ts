import type { AnalyticsBreakdown, AnalyticsDimension } from '../../../../contract/analytics.ts';
import { rowLabel } from './labels.ts';

type Row = AnalyticsBreakdown['data'][number];

export interface Movement {
  /** The dimension value (`none` for runs without one); null for the rows grouped as the rest. */
  value: string | null;
  label: string;
  current: number;
  previous: number;
  /** Current minus previous spend. */
  delta: number;
  /** |delta| over every value's |delta|: the movements' shares add up to 100%. */
  share: number;
}

export interface WhatChanged {
  dimension: AnalyticsDimension;
  /** The largest movements first, then one row for the smaller ones (when there are any). */
  movements: Movement[];
  /** The change of the whole: the sum of every delta (the Spend card's change). */
  net: number;
  /** Spend added by the values that rose, and taken away by those that fell (a positive number). */
  rise: number;
  fall: number;
}

export const REST_LABEL = 'Everything else';

/**
 * How spend moved within one dimension between the two periods, from one breakdown whose rows carry
 * the comparison period (`previous`). Every row counts, the server's "other" row too (it groups the same
 * values in both periods), so the deltas add up to the whole change. A share is a movement's part of all
 * movement, up and down: "Image +500 · 71%" means 71% of the credits that moved moved on Image. (A share
 * of the net change runs past 100% as soon as values move both ways: +500 and −400 are 500% and −400% of
 * a change of 100.) Beyond `limit`, the smaller movements are one row.
 */
export function whatChanged(breakdown: AnalyticsBreakdown, limit = 8): WhatChanged {
  const dimension = breakdown.meta.dimension;
  const all = breakdown.data
    .map((row: Row) => {
      const previous = row.previous?.spend_cents ?? 0;
      return {
        value: row.other ? null : (row.key ?? 'none'),
        label: rowLabel(dimension, row),
        current: row.spend_cents,
        previous,
        delta: row.spend_cents - previous,
      };
    })
    .filter((movement) => movement.delta !== 0)
    // The rest row last among equals, so a named value is never hidden behind it.
    .sort(
      (a, b) => Math.abs(b.delta) - Math.abs(a.delta) || Number(a.value === null) - Number(b.value === null),
    );
  const gross = all.reduce((sum, m) => sum + Math.abs(m.delta), 0);
  const withShare = (m: Omit<Movement, 'share'>): Movement => ({ ...m, share: Math.abs(m.delta) / gross });

  const named = all.filter((m) => m.value !== null);
  const shown = named.slice(0, limit);
  const rest = all.filter((m) => !shown.includes(m));
  const movements = shown.map(withShare);
  if (rest.length > 0) {
    const sum = (pick: (m: (typeof rest)[number]) => number) => rest.reduce((total, m) => total + pick(m), 0);
    // Shares of the rows add up to 100%: the rest's is what the shown ones leave.
    const restShare = 1 - movements.reduce((total, m) => total + m.share, 0);
    movements.push({
      value: null,
      label: rest.length === 1 && rest[0] ? rest[0].label : REST_LABEL,
      current: sum((m) => m.current),
      previous: sum((m) => m.previous),
      delta: sum((m) => m.delta),
      share: Math.max(0, restShare),
    });
  }
  return {
    dimension,
    movements,
    net: all.reduce((sum, m) => sum + m.delta, 0),
    rise: all.reduce((sum, m) => sum + Math.max(0, m.delta), 0),
    fall: all.reduce((sum, m) => sum + Math.max(0, -m.delta), 0),
  };
}
