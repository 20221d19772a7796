import type {
  AnalyticsSummary,
  AnalyticsSummaryQuery,
  AnalyticsTotals,
} from '../../../contract/analytics.ts';
import type { Db } from '../../db/pool.ts';
import { teamBalance } from '../billing/balance.ts';
import type { Viewer } from './filters.ts';
import { filtersOf, inSnapshot, metaOf } from './meta.ts';
import { resolveQueryInstants } from './range.ts';
import { type Reads, totalsBy, ZERO } from './totals.ts';

type Change = NonNullable<AnalyticsSummary['data']['change']>;

export function changeOf(current: AnalyticsTotals, previous: AnalyticsTotals): Change {
  const entries = (Object.keys(ZERO) as (keyof AnalyticsTotals)[]).map((name) => {
    const delta = current[name] - previous[name];
    return [name, { delta, ratio: previous[name] === 0 ? null : delta / previous[name] }];
  });
  return Object.fromEntries(entries) as Change;
}

export async function analyticsSummary(
  db: Db,
  viewer: Viewer,
  query: AnalyticsSummaryQuery,
  now?: number,
  reads: Reads = 'rollup',
): Promise<AnalyticsSummary> {
  const filters = filtersOf(query);
  return inSnapshot(db, query.timezone, async (tx, asOf) => {
    const range = resolveQueryInstants(query, now ?? asOf.getTime());
    const current = (await totalsBy(tx, viewer, filters, range, { kind: 'none' }, reads)).get('') ?? {
      ...ZERO,
    };
    let previous: AnalyticsTotals | null = null;
    if (range.compare.from && range.compare.to) {
      const period = { from: range.compare.from, to: range.compare.to };
      previous = (await totalsBy(tx, viewer, filters, period, { kind: 'none' }, reads)).get('') ?? {
        ...ZERO,
      };
    }
    return {
      data: {
        ...current,
        previous,
        change: previous ? changeOf(current, previous) : null,
        balance: query.include_balance ? await teamBalance(tx, viewer.teamId, asOf) : null,
      },
      meta: metaOf(range, filters, viewer, asOf),
    };
  });
}
