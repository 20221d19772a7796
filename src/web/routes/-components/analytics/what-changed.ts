import type { AnalyticsBreakdown, AnalyticsDimension } from '../../../../contract/analytics.ts';

type Row = AnalyticsBreakdown['data'][number];

export interface DimensionPeriods {
  dimension: AnalyticsDimension;
  current: readonly Row[];
  previous: readonly Row[];
}

export interface Contribution {
  dimension: AnalyticsDimension;
  /** The dimension value (`none` for runs without one). */
  value: string;
  label: string;
  current: number;
  previous: number;
  /** Current minus previous spend. */
  delta: number;
  /** delta / the total change; null when the total did not change. Negative: it moved against the total. */
  share: number | null;
}

const rowValue = (row: Row) => row.key ?? 'none';

/**
 * The dimension values whose spend moved most between the two periods, largest move first. Each
 * dimension's rows come from two breakdowns (current period, comparison period), matched by value, so a
 * value that disappeared counts as much as a new one. The "other" rows group different values in each
 * period, so they are left out; `totalDelta` is the change of the whole (the summary's).
 */
export function whatChanged(
  periods: readonly DimensionPeriods[],
  totalDelta: number,
  limit = 8,
): Contribution[] {
  const contributions: Contribution[] = [];
  for (const { dimension, current, previous } of periods) {
    const byValue = new Map<string, { label: string; current: number; previous: number }>();
    for (const row of current) {
      if (row.other) continue;
      byValue.set(rowValue(row), { label: row.label, current: row.spend_cents, previous: 0 });
    }
    for (const row of previous) {
      if (row.other) continue;
      const entry = byValue.get(rowValue(row));
      if (entry) entry.previous = row.spend_cents;
      else byValue.set(rowValue(row), { label: row.label, current: 0, previous: row.spend_cents });
    }
    for (const [value, entry] of byValue) {
      const delta = entry.current - entry.previous;
      if (delta === 0) continue;
      contributions.push({
        dimension,
        value,
        label: entry.label,
        current: entry.current,
        previous: entry.previous,
        delta,
        share: totalDelta === 0 ? null : delta / totalDelta,
      });
    }
  }
  contributions.sort(
    (a, b) => Math.abs(b.delta) - Math.abs(a.delta) || a.dimension.localeCompare(b.dimension),
  );
  return contributions.slice(0, limit);
}
