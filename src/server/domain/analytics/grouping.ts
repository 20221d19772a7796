import type { AnalyticsDimension } from '../../../contract/analytics.ts';
import { type Columns, dimensionSql, type Params, type Viewer } from './filters.ts';

/** How totals are grouped: not at all, by a breakdown dimension, or into time buckets (edge instants). */
export type Grouping =
  | { kind: 'none' }
  | { kind: 'dimension'; dimension: AnalyticsDimension }
  | { kind: 'buckets'; edges: Date[] };

/**
 * The SQL value rows are grouped by, over the given columns and time column. Buckets are numbered by
 * width_bucket: [edges[i-1], edges[i]) is i (grouping by integers is cheaper than by text).
 */
export function groupKeySql(p: Params, grouping: Grouping, viewer: Viewer, c: Columns, time: string): string {
  if (grouping.kind === 'none') return "''";
  if (grouping.kind === 'dimension') return dimensionSql(p, c, grouping.dimension, viewer);
  return `width_bucket(${time}, ${p.add(grouping.edges)}::timestamptz[])`;
}
