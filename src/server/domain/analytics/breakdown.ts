import type {
  AnalyticsBreakdown,
  AnalyticsBreakdownQuery,
  AnalyticsTotals,
} from '../../../contract/analytics.ts';
import type { Db } from '../../db/pool.ts';
import { OTHER_KEY, type Viewer } from './filters.ts';
import type { Grouping } from './grouping.ts';
import { hiddenGroupLabel, labelsFor, noneLabel, OTHER_LABEL } from './labels.ts';
import { filtersOf, inSnapshot, metaOf } from './meta.ts';
import { resolveQueryInstants } from './range.ts';
import { addTotals, type Reads, totalsBy, ZERO } from './totals.ts';

type Row = AnalyticsBreakdown['data'][number];

/**
 * Spend by one dimension: the `limit` values with the most spend (then most runs, then by key), and one
 * `other` row summing the rest and, in `self` scope, every identity that is not the caller's, and the
 * folders hidden from the caller.
 */
export async function analyticsBreakdown(
  db: Db,
  viewer: Viewer,
  query: AnalyticsBreakdownQuery,
  now?: number,
  reads: Reads = 'rollup',
): Promise<AnalyticsBreakdown> {
  const filters = filtersOf(query);
  const dimension = query.dimension;
  const grouping: Grouping = { kind: 'dimension', dimension };
  return inSnapshot(db, query.timezone, async (tx, asOf) => {
    const range = resolveQueryInstants(query, now ?? asOf.getTime());
    const current = await totalsBy(tx, viewer, filters, range, grouping, reads);
    const previous =
      range.compare.from && range.compare.to
        ? await totalsBy(
            tx,
            viewer,
            filters,
            { from: range.compare.from, to: range.compare.to },
            grouping,
            reads,
          )
        : null;

    const keys = new Set<string | null>([...current.keys(), ...(previous?.keys() ?? [])]);
    const othersGroup = keys.delete(OTHER_KEY);
    const ranked = [...keys].sort((a, b) => {
      const x = current.get(a) ?? ZERO;
      const y = current.get(b) ?? ZERO;
      return y.spend_cents - x.spend_cents || y.runs - x.runs || String(a).localeCompare(String(b));
    });
    const top = ranked.slice(0, query.limit);
    const rest = [...ranked.slice(query.limit), ...(othersGroup ? [OTHER_KEY] : [])];

    const total = [...current.values()].reduce((sum, t) => sum + t.spend_cents, 0);
    const share = (spend: number) => (total > 0 ? Math.min(1, Math.max(0, spend / total)) : 0);
    const labels = await labelsFor(
      tx,
      viewer,
      dimension,
      top.filter((k): k is string => k !== null),
    );
    const rows: Row[] = top.map((key) => {
      const totals = current.get(key) ?? { ...ZERO };
      return {
        key,
        label: key === null ? noneLabel(dimension) : (labels.get(key) ?? key),
        other: false,
        ...totals,
        share: share(totals.spend_cents),
        previous: previous ? (previous.get(key) ?? { ...ZERO }) : null,
      };
    });
    if (rest.length > 0) {
      const sum = (map: Map<string | null, AnalyticsTotals>) =>
        rest.reduce<AnalyticsTotals>((acc, key) => addTotals(acc, map.get(key) ?? ZERO), { ...ZERO });
      const totals = sum(current);
      rows.push({
        key: null,
        label: othersGroup && rest.length === 1 ? hiddenGroupLabel(dimension) : OTHER_LABEL,
        other: true,
        ...totals,
        share: share(totals.spend_cents),
        previous: previous ? sum(previous) : null,
      });
    }
    return { data: rows, meta: { ...metaOf(range, filters, viewer, asOf), dimension } };
  });
}
