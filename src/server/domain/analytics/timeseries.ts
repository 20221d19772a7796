import type {
  AnalyticsTimeseries,
  AnalyticsTimeseriesQuery,
  AnalyticsTotals,
} from '../../../contract/analytics.ts';
import type { Db, Queryable } from '../../db/pool.ts';
import type { Viewer } from './filters.ts';
import { filtersOf, inSnapshot, metaOf } from './meta.ts';
import { resolveQueryInstants } from './range.ts';
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
    return {
      data: current.map((b, i) => ({
        start: b.start.toISOString(),
        end: b.end.toISOString(),
        ...b.totals,
        // The comparison period's bucket at the same position; past its last bucket, zero.
        previous: previous ? (previous[i] ?? { ...ZERO }) : null,
      })),
      meta: { ...metaOf(range, filters, viewer, asOf), bucket: query.bucket },
    };
  });
}
