import type {
  AnalyticsDimension,
  AnalyticsSeriesGroup,
  AnalyticsTimeseries,
  AnalyticsTimeseriesQuery,
  AnalyticsTotals,
} from '../../../contract/analytics.ts';
import { NONE } from '../../../contract/values.ts';
import type { Db, Queryable } from '../../db/pool.ts';
import { OTHER_KEY, type Viewer } from './filters.ts';
import { labelsFor, noneLabel, OTHER_LABEL } from './labels.ts';
import { filtersOf, inSnapshot, metaOf } from './meta.ts';
import { type QueryInstants, resolveQueryInstants } from './range.ts';
import { type Reads, totalsBy, ZERO } from './totals.ts';

type Bucket = AnalyticsTimeseriesQuery['bucket'];

/**
 * The bucket edges of a period, computed by PostgreSQL: calendar days, weeks (from Monday) and months
 * are stepped on the local wall clock of the time zone and each local start converted to its instant,
 * so a day is 23 or 25 hours across a daylight-saving change; hours are stepped as real hours from the
 * local hour that holds `from`. The first and last buckets are clipped to the period.
 */
export async function bucketEdges(
  db: Queryable,
  period: { from: Date; to: Date },
  timezone: string,
  bucket: Bucket,
): Promise<Date[]> {
  const series =
    bucket === 'hour'
      ? `SELECT g FROM generate_series(date_trunc('hour', $1::timestamptz AT TIME ZONE $3) AT TIME ZONE $3,
                                        $2::timestamptz, interval '1 hour') g`
      : `SELECT g AT TIME ZONE $3 FROM generate_series(date_trunc('${bucket}', $1::timestamptz AT TIME ZONE $3),
                                                        $2::timestamptz AT TIME ZONE $3, interval '1 ${bucket}') g`;
  const { rows } = await db.query<{ edges: Date[] }>(
    `SELECT array_agg(e ORDER BY e) AS edges FROM (
       SELECT $1::timestamptz AS e
       UNION SELECT s.g FROM (${series}) s(g) WHERE s.g > $1::timestamptz AND s.g < $2::timestamptz
       UNION SELECT $2::timestamptz
     ) edges`,
    [period.from, period.to, timezone],
  );
  return rows[0]!.edges;
}

async function series(
  db: Queryable,
  viewer: Viewer,
  query: AnalyticsTimeseriesQuery,
  period: { from: Date; to: Date },
  timezone: string,
  reads: Reads,
) {
  const edges = await bucketEdges(db, period, timezone, query.bucket);
  const totals = await totalsBy(db, viewer, filtersOf(query), period, { kind: 'buckets', edges }, reads);
  // width_bucket numbers the bucket [edges[i-1], edges[i]) as i.
  return edges.slice(1).map((end, i) => ({
    start: edges[i]!,
    end,
    totals: totals.get(String(i + 1)) ?? { ...ZERO },
  }));
}

export async function analyticsTimeseries(
  db: Db,
  viewer: Viewer,
  query: AnalyticsTimeseriesQuery,
  now?: number,
  reads: Reads = 'rollup',
): Promise<AnalyticsTimeseries> {
  const filters = filtersOf(query);
  return inSnapshot(db, query.timezone, async (tx, asOf) => {
    const range = resolveQueryInstants(query, now ?? asOf.getTime());
    const current = await series(tx, viewer, query, range, range.timezone, reads);
    let previous: AnalyticsTotals[] | null = null;
    if (range.compare.from && range.compare.to) {
      const period = { from: range.compare.from, to: range.compare.to };
      previous = (await series(tx, viewer, query, period, range.timezone, reads)).map((b) => b.totals);
    }
    const grouped = query.group_by
      ? await groupedSeries(tx, viewer, query, query.group_by, range, reads, current)
      : null;
    return {
      data: current.map((b, i) => ({
        start: b.start.toISOString(),
        end: b.end.toISOString(),
        ...b.totals,
        // The comparison period's bucket at the same position; past its last bucket, zero.
        previous: previous ? (previous[i] ?? { ...ZERO }) : null,
        ...(grouped ? { groups: grouped.buckets[i]! } : {}),
      })),
      meta: {
        ...metaOf(range, filters, viewer, asOf),
        bucket: query.bucket,
        group_by: query.group_by ?? null,
        groups: grouped?.groups ?? [],
      },
    };
  });
}

type GroupTotals = NonNullable<AnalyticsTimeseries['data'][number]['groups']>[number];

/**
 * The series split by a dimension, for a stacked chart in one request: the range's top `limit` values
 * (ranked as the breakdown ranks them), each read as the series with the dimension's filter set to that
 * value, and `other` as the bucket minus those, so every bucket's groups add up to it exactly (the group
 * of other people's keys in `self` scope and folders hidden from the caller fall into `other` too).
 */
async function groupedSeries(
  tx: Queryable,
  viewer: Viewer,
  query: AnalyticsTimeseriesQuery,
  dimension: AnalyticsDimension,
  range: QueryInstants,
  reads: Reads,
  total: Array<{ totals: AnalyticsTotals }>,
): Promise<{ groups: AnalyticsSeriesGroup[]; buckets: GroupTotals[][] }> {
  const byKey = await totalsBy(tx, viewer, filtersOf(query), range, { kind: 'dimension', dimension }, reads);
  byKey.delete(OTHER_KEY);
  const top = [...byKey.keys()]
    .sort((a, b) => {
      const x = byKey.get(a)!;
      const y = byKey.get(b)!;
      return y.spend_cents - x.spend_cents || y.runs - x.runs || String(a).localeCompare(String(b));
    })
    .slice(0, query.limit);
  const labels = await labelsFor(
    tx,
    viewer,
    dimension,
    top.filter((k): k is string => k !== null),
  );
  const parts: AnalyticsTotals[][] = [];
  // One after another: the queries share the snapshot's one connection.
  for (const key of top) {
    const one = { ...query, [dimension]: filterValueOf(dimension, key) };
    parts.push((await series(tx, viewer, one, range, range.timezone, reads)).map((b) => b.totals));
  }
  const buckets = total.map((bucket, i) => {
    const shown = top.map((key, at) => ({ key, other: false, ...(parts[at]![i] ?? { ...ZERO }) }));
    const rest = shown.reduce<AnalyticsTotals>((left, group) => subtractTotals(left, group), bucket.totals);
    return [...shown, { key: null, other: true, ...rest }];
  });
  const restSeen = buckets.some((groups) => !isZero(groups[groups.length - 1]!));
  const groups: AnalyticsSeriesGroup[] = top.map((key) => ({
    key,
    label: key === null ? noneLabel(dimension) : (labels.get(key) ?? key),
    other: false,
  }));
  if (!restSeen) return { groups, buckets: buckets.map((groupsOf) => groupsOf.slice(0, -1)) };
  return { groups: [...groups, { key: null, label: OTHER_LABEL, other: true }], buckets };
}

/** The filter that selects one group: its value (a creator as `{ kind, id }`), or `none`. */
function filterValueOf(dimension: AnalyticsDimension, key: string | null) {
  if (key === null) return NONE;
  if (dimension !== 'creator') return [key];
  const at = key.indexOf(':');
  return [{ kind: key.slice(0, at) as 'api_key' | 'member', id: key.slice(at + 1) }];
}

function subtractTotals(a: AnalyticsTotals, b: AnalyticsTotals): AnalyticsTotals {
  const out = { ...a };
  for (const name of Object.keys(out) as (keyof AnalyticsTotals)[]) out[name] -= b[name];
  return out;
}

const isZero = (t: AnalyticsTotals) =>
  (Object.keys(ZERO) as (keyof AnalyticsTotals)[]).every((name) => t[name] === 0);
