import type pg from 'pg';
import {
  type AnalyticsPerformance,
  type AnalyticsPerformanceQuery,
  type AnalyticsPerformanceRow,
  type AnalyticsPerformanceTimeseries,
  type AnalyticsPerformanceTimeseriesQuery,
  type LatencyPercentiles,
  PERFORMANCE_EXACT_MAX_JOBS,
  PERFORMANCE_TOP_ERRORS,
  type PerformanceFigures,
  type PerformanceModelFigures,
  type PerformancePhase,
} from '../../../contract/analytics-performance.ts';
import { PERFORMANCE_ENTRIES } from '../../db/migrations/028-performance-rollup.ts';
import type { Db } from '../../db/pool.ts';
import {
  type AnalyticsFilters,
  type Columns,
  filterConditions,
  JOB_COLUMNS,
  Params,
  type Viewer,
} from './filters.ts';
import { filtersOf, inSnapshot, metaOf } from './meta.ts';
import { coverByGrains, type RollupCover } from './performance-cover.ts';
import { addTo, type Histogram, histogramPercentiles } from './performance-sketch.ts';
import { resolveQueryInstants } from './range.ts';
import { bucketEdges } from './timeseries.ts';

/** Each span as SQL over `j`: milliseconds between two moments of the timeline, null if either is missing. */
const SPANS: Record<'total' | PerformancePhase, string> = {
  total: 'j.completed_at - j.created_at',
  queued: 'j.started_at - j.created_at',
  provider_queue: 'j.provider_started_at - j.submitted_at',
  provider_run: 'j.provider_finished_at - j.provider_started_at',
  downloading: 'j.completed_at - j.provider_finished_at',
};

type SpanName = keyof typeof SPANS;
const SPAN_NAMES = Object.keys(SPANS) as SpanName[];

/**
 * Where percentiles come from: `exact` reads the jobs (percentile_cont); `rollup` the histograms of
 * migration 028 plus the jobs of the hours a bound or bucket edge cuts; `auto` (as served) the rollup
 * when it can answer and the answer holds more than PERFORMANCE_EXACT_MAX_JOBS finished jobs, else exact.
 */
export type PerformanceReads = 'auto' | 'exact' | 'rollup';

/** The figures of one group of jobs before they are written out. */
interface Collected {
  completed: number;
  failed: number;
  cancelled: number;
  spans: Record<SpanName, LatencyPercentiles | null>;
  errors: Map<string, number>;
}

/** Bucket number (width_bucket over the edges) → group (`model\0provider`, or '' for all jobs) → figures. */
type Collection = Map<number, Map<string, Collected>>;

const groupKey = (model: string, provider: string) => `${model}\u0000${provider}`;

function slot(c: Collection, bucket: number, key: string): Collected {
  let groups = c.get(bucket);
  if (!groups) {
    groups = new Map();
    c.set(bucket, groups);
  }
  let found = groups.get(key);
  if (!found) {
    const spans = Object.fromEntries(SPAN_NAMES.map((s) => [s, null])) as Collected['spans'];
    found = { completed: 0, failed: 0, cancelled: 0, spans, errors: new Map() };
    groups.set(key, found);
  }
  return found;
}

function spanColumns(name: SpanName): string {
  // Only completed jobs say how long a model takes; a clock step may make a span negative: not a sample.
  const ms = `extract(epoch FROM ${SPANS[name]}) * 1000`;
  const where = `FILTER (WHERE j.status = 'completed' AND ${ms} >= 0)`;
  return `count(${ms}) ${where} AS ${name}_n,
          percentile_cont(ARRAY[0.5, 0.9, 0.99]) WITHIN GROUP (ORDER BY (${ms})::float8) ${where} AS ${name}_p`;
}

interface Scope {
  viewer: Viewer;
  filters: AnalyticsFilters;
  edges: Date[];
  /** Whether the figures of all jobs of a bucket are wanted besides those per model (the series). */
  overall: boolean;
  /** Whether error codes are wanted (the endpoint's top errors). */
  errors: boolean;
}

/** Exact figures from the jobs: one pass per answer with percentile_cont, in the snapshot. */
async function collectExact(tx: pg.PoolClient, s: Scope): Promise<Collection> {
  const p = new Params();
  const edges = p.add(s.edges);
  const where = [
    `j.team_id = ${p.add(s.viewer.teamId)}`,
    `j.created_at >= ${p.add(s.edges[0])}`,
    `j.created_at < ${p.add(s.edges[s.edges.length - 1])}`,
    `j.status IN ('completed', 'failed', 'cancelled')`,
    ...filterConditions(p, JOB_COLUMNS, s.filters, s.viewer),
  ].join(' AND ');
  const jobs = `(SELECT j.*, width_bucket(j.created_at, ${edges}::timestamptz[]) AS b FROM jobs j WHERE ${where}) j`;
  const sets = s.overall ? 'GROUPING SETS ((j.b, j.model, j.provider), (j.b))' : 'j.b, j.model, j.provider';
  const { rows } = await tx.query<Record<string, unknown>>(
    `SELECT j.b, j.model, j.provider, GROUPING(j.model) AS overall,
            count(*) FILTER (WHERE j.status = 'completed') AS completed,
            count(*) FILTER (WHERE j.status = 'failed') AS failed,
            count(*) FILTER (WHERE j.status = 'cancelled') AS cancelled,
            ${SPAN_NAMES.map(spanColumns).join(',\n')}
       FROM ${jobs} GROUP BY ${sets}`,
    p.values,
  );
  const out: Collection = new Map();
  for (const row of rows) {
    const into = slot(
      out,
      Number(row.b),
      Number(row.overall) ? '' : groupKey(row.model as string, row.provider as string),
    );
    into.completed = Number(row.completed);
    into.failed = Number(row.failed);
    into.cancelled = Number(row.cancelled);
    for (const name of SPAN_NAMES) {
      const samples = Number(row[`${name}_n`]);
      const q = row[`${name}_p`] as number[] | null;
      into.spans[name] = samples > 0 && q ? { samples, p50_ms: q[0]!, p90_ms: q[1]!, p99_ms: q[2]! } : null;
    }
  }
  if (s.errors) {
    const errors = await tx.query<{ b: number; model: string; provider: string; code: string; n: string }>(
      `SELECT j.b, j.model, j.provider, coalesce(j.error->>'code', 'unknown') AS code, count(*) AS n
         FROM ${jobs} WHERE j.status = 'failed' GROUP BY 1, 2, 3, 4`,
      p.values,
    );
    for (const e of errors.rows)
      slot(out, Number(e.b), groupKey(e.model, e.provider)).errors.set(e.code, Number(e.n));
  }
  return out;
}

/** The rollup's columns under the names filters use (it keeps tool and model). */
const ROLLUP_COLUMNS: Columns = { ...JOB_COLUMNS, tool: 'c.tool', model: 'c.model' };

/** Whether the rollup holds what a query filters by: it keeps neither source, folders, identities nor status. */
function rollupAnswers(viewer: Viewer, filters: AnalyticsFilters): boolean {
  if (viewer.scope !== 'full') return false;
  return Object.entries(filters).every(
    ([name, value]) => value === undefined || ['capability', 'model'].includes(name),
  );
}

/** Between the entries of a histogram: a control character that no error code holds. */
const ENTRY_SEPARATOR = '\u001f';

/**
 * The rollup's rows of each unit of a cover, and the cut hours' jobs bucketed by the trigger's entries:
 * per unit (or bucket of jobs), kind, model and provider, its sign and one text of `count key` entries
 * joined by ENTRY_SEPARATOR. A row per histogram, not per histogram bucket, and text rather than arrays:
 * sending and parsing the rows cost more than reading them. Each unit groups its own index range, which
 * comes in (kind, model, provider) order, so nothing is hashed or sorted; the caller adds up the units.
 */
function coverSql(p: Params, s: Scope, cover: RollupCover): string {
  const parts: string[] = [];
  if (cover.units.length > 0) {
    const u = cover.units;
    const filters = filterConditions(p, ROLLUP_COLUMNS, s.filters, s.viewer)
      .map((c) => ` AND ${c}`)
      .join('');
    parts.push(`SELECT u.b, u.sign, x.kind, x.model, x.provider, x.entries
        FROM unnest(${p.add(u.map((x) => x.grain))}::text[], ${p.add(u.map((x) => x.start))}::timestamptz[],
                    ${p.add(u.map((x) => x.sign))}::int[], ${p.add(u.map((x) => x.bucket))}::int[]) u(grain, start, sign, b)
       CROSS JOIN LATERAL (
         SELECT c.kind, c.model, c.provider, string_agg(c.n || ' ' || c.key, chr(31)) AS entries
           FROM performance_rollup c
          WHERE c.team_id = ${p.add(s.viewer.teamId)} AND c.grain = u.grain AND c.period_start = u.start${filters}
          GROUP BY c.kind, c.model, c.provider) x`);
  }
  if (cover.raw.length > 0)
    parts.push(`SELECT r.b, 1, r.kind, r.model, r.provider, string_agg(r.n || ' ' || r.key, chr(31))
        FROM (SELECT width_bucket(j.created_at, ${p.add(s.edges)}::timestamptz[]) AS b, e.kind, j.model, j.provider,
                     e.key, count(*) AS n
                FROM (SELECT j.* ${rawJobsSql(p, s, cover)}) j
               CROSS JOIN LATERAL ${PERFORMANCE_ENTRIES('j')} e(kind, key)
               WHERE e.key IS NOT NULL
               GROUP BY 1, 2, 3, 4, 5) r
       GROUP BY r.b, r.kind, r.model, r.provider`);
  if (parts.length === 0)
    return 'SELECT 1 AS b, 1 AS sign, NULL AS kind, NULL AS model, NULL AS provider, NULL AS entries WHERE false';
  return parts.join(' UNION ALL ');
}

/** FROM and WHERE over the jobs of the cut hours, one index range per interval. */
function rawJobsSql(p: Params, s: Scope, cover: RollupCover): string {
  return `FROM unnest(${p.add(cover.raw.map((r) => r.from))}::timestamptz[],
                      ${p.add(cover.raw.map((r) => r.to))}::timestamptz[]) w(a, z)
          JOIN jobs j ON j.team_id = ${p.add(s.viewer.teamId)} AND j.created_at >= w.a AND j.created_at < w.z
         WHERE j.status IN ('completed', 'failed', 'cancelled') ${filterConditions(
           p,
           JOB_COLUMNS,
           s.filters,
           s.viewer,
         )
           .map((c) => `AND ${c}`)
           .join(' ')}`;
}

/**
 * Figures from the rollup (its units of the cover, signed) and the jobs of the cut hours, in one query.
 * Counts and error counts are exact; percentiles are read from the merged histograms.
 */
async function collectRollup(tx: pg.PoolClient, s: Scope, cover: RollupCover): Promise<Collection> {
  type Entry = { b: number; sign: number; model: string; provider: string; kind: string; entries: string };
  const p = new Params();
  const { rows } = await tx.query<Entry>(coverSql(p, s, cover), p.values);
  const histograms = new Map<Collected, Map<SpanName, Histogram>>();
  const out: Collection = new Map();
  for (const e of rows) {
    const targets = [slot(out, Number(e.b), groupKey(e.model, e.provider))];
    if (s.overall) targets.push(slot(out, Number(e.b), ''));
    for (const into of targets) {
      let h: Histogram | undefined;
      if (e.kind !== 'status' && e.kind !== 'error') {
        const spans = histograms.get(into) ?? new Map<SpanName, Histogram>();
        histograms.set(into, spans);
        h = spans.get(e.kind as SpanName) ?? new Map<number, number>();
        spans.set(e.kind as SpanName, h);
      }
      for (const entry of e.entries.split(ENTRY_SEPARATOR)) {
        const space = entry.indexOf(' ');
        const n = Number(entry.slice(0, space)) * e.sign;
        const key = entry.slice(space + 1);
        if (h) addTo(h, Number(key), n);
        else if (e.kind === 'status') into[key as 'completed' | 'failed' | 'cancelled'] += n;
        else into.errors.set(key, (into.errors.get(key) ?? 0) + n);
      }
    }
  }
  for (const into of groupsOf(out))
    for (const [code, n] of into.errors) if (n === 0) into.errors.delete(code);
  for (const [into, spans] of histograms)
    for (const [name, h] of spans) into.spans[name] = histogramPercentiles(h);
  return out;
}

function* groupsOf(c: Collection): Generator<Collected> {
  for (const groups of c.values()) yield* groups.values();
}

/** Finished jobs in a collection (the groups per model: the overall ones count them again). */
function finishedIn(c: Collection): number {
  let n = 0;
  for (const groups of c.values())
    for (const [key, g] of groups) if (key !== '') n += g.completed + g.failed + g.cancelled;
  return n;
}

async function collect(
  tx: pg.PoolClient,
  s: Scope,
  reads: PerformanceReads,
): Promise<{ collection: Collection; percentiles: 'exact' | 'histogram' }> {
  if (reads === 'exact' || !rollupAnswers(s.viewer, s.filters))
    return { collection: await collectExact(tx, s), percentiles: 'exact' };
  // Read as served, then exact when the answer is small (a small answer's rollup rows are few too): one
  // query for a large answer, where a count first would read the status rows twice.
  const collection = await collectRollup(tx, s, coverByGrains(s.edges));
  if (reads === 'auto' && finishedIn(collection) <= PERFORMANCE_EXACT_MAX_JOBS)
    return { collection: await collectExact(tx, s), percentiles: 'exact' };
  return { collection, percentiles: 'histogram' };
}

function figuresOf(c: Collected | undefined): PerformanceFigures {
  const completed = c?.completed ?? 0;
  const failed = c?.failed ?? 0;
  const cancelled = c?.cancelled ?? 0;
  return {
    jobs: completed + failed + cancelled,
    completed,
    failed,
    cancelled,
    failure_rate: completed + failed > 0 ? failed / (completed + failed) : null,
    total: c?.spans.total ?? null,
    phases: {
      queued: c?.spans.queued ?? null,
      provider_queue: c?.spans.provider_queue ?? null,
      provider_run: c?.spans.provider_run ?? null,
      downloading: c?.spans.downloading ?? null,
    },
  };
}

/** The groups of a bucket as per-model figures, most jobs first. */
function modelsOf(groups: Map<string, Collected> | undefined): (PerformanceModelFigures & { key: string })[] {
  const rows = [...(groups ?? [])]
    .filter(([key]) => key !== '')
    .map(([key, c]) => {
      const [model, provider] = key.split('\u0000') as [string, string];
      return { key, model, provider, ...figuresOf(c) };
    })
    .filter((r) => r.jobs > 0);
  return rows.sort(
    (a, b) => b.jobs - a.jobs || a.model.localeCompare(b.model) || a.provider.localeCompare(b.provider),
  );
}

/**
 * Latency and failures per model and provider, over the finished jobs created in the range (the same
 * filters as spend), in the same snapshot as `data_as_of`.
 */
export async function analyticsPerformance(
  db: Db,
  viewer: Viewer,
  query: AnalyticsPerformanceQuery,
  now?: number,
  reads: PerformanceReads = 'auto',
): Promise<AnalyticsPerformance> {
  const filters = filtersOf(query);
  return inSnapshot(db, query.timezone, async (tx, asOf) => {
    const range = resolveQueryInstants({ ...query, compare: 'none' }, now ?? asOf.getTime());
    const scope = { viewer, filters, edges: [range.from, range.to], overall: false, errors: true };
    const { collection, percentiles } = await collect(tx, scope, reads);
    const groups = collection.get(1);
    const data: AnalyticsPerformanceRow[] = modelsOf(groups).map(({ key, ...row }) => ({
      ...row,
      top_errors: [...(groups?.get(key)?.errors ?? [])]
        .map(([code, count]) => ({ code, count }))
        .sort((a, b) => b.count - a.count || a.code.localeCompare(b.code))
        .slice(0, PERFORMANCE_TOP_ERRORS),
    }));
    return {
      data,
      meta: { ...metaOf(range, filters, viewer, asOf), time_basis: 'job_created_at', percentiles },
    };
  });
}

/** The same figures per calendar bucket, overall and per model and provider. */
export async function analyticsPerformanceTimeseries(
  db: Db,
  viewer: Viewer,
  query: AnalyticsPerformanceTimeseriesQuery,
  now?: number,
  reads: PerformanceReads = 'auto',
): Promise<AnalyticsPerformanceTimeseries> {
  const filters = filtersOf(query);
  return inSnapshot(db, query.timezone, async (tx, asOf) => {
    const range = resolveQueryInstants({ ...query, compare: 'none' }, now ?? asOf.getTime());
    const edges = await bucketEdges(tx, range, range.timezone, query.bucket);
    const { collection, percentiles } = await collect(
      tx,
      { viewer, filters, edges, overall: true, errors: false },
      reads,
    );
    // width_bucket numbers the bucket [edges[i-1], edges[i]) as i.
    const data = edges.slice(1).map((end, i) => {
      const groups = collection.get(i + 1);
      return {
        start: edges[i]!.toISOString(),
        end: end.toISOString(),
        ...figuresOf(groups?.get('')),
        models: modelsOf(groups).map(({ key: _key, ...row }) => row),
      };
    });
    return {
      data,
      meta: {
        ...metaOf(range, filters, viewer, asOf),
        time_basis: 'job_created_at',
        percentiles,
        bucket: query.bucket,
      },
    };
  });
}
