import type { Queryable } from '../../db/pool.ts';
import { TtlCache } from '../ttl-cache.ts';

/*
 * `estimated_duration_ms`: how long a new job is expected to run, from what this server has measured of
 * the same model at the same provider (the catalog's typical time only until it has measured enough). A
 * 60 s video estimated at the catalog's 6 s, then taking 20 s, told people nothing.
 */

/** One measured run: how long it ran, and the length it was asked for (`duration`), when it was. */
export interface MeasuredRun {
  ms: number;
  seconds: number | null;
}

/** Fewer measured runs than this, and the catalog's typical time stands. */
export const MIN_MEASURED_RUNS = 3;
/** The most recent runs count: engines and providers change speed. */
const RECENT_RUNS = 20;
const RECENT_DAYS = 30;
/** Measurements change slowly; each process reads them at most this often per offer. */
const MEASURED_TTL_MS = 30_000;

/**
 * The expected run: the median of the measured runs, per second asked for when the request and the runs
 * name a `duration` (a 60 s video takes longer than a 5 s one), else the `typical` time.
 */
export function expectedRunMs(
  runs: readonly MeasuredRun[],
  body: Record<string, unknown>,
  typical: number,
): number {
  if (runs.length < MIN_MEASURED_RUNS) return typical;
  const asked = typeof body.duration === 'number' && body.duration > 0 ? body.duration : null;
  const perSecond = runs.flatMap((run) => (run.seconds && run.seconds > 0 ? [run.ms / run.seconds] : []));
  if (asked !== null && perSecond.length >= MIN_MEASURED_RUNS) return Math.round(median(perSecond) * asked);
  return Math.round(median(runs.map((run) => run.ms)));
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Per database (a test's app, the server's pool): the recent runs of each offer, kept a little while. */
const measuredByDb = new WeakMap<Queryable, TtlCache<MeasuredRun[]>>();

/** The recent completed runs of `model` at `provider` on this server, newest first. */
export async function measuredRuns(db: Queryable, model: string, provider: string): Promise<MeasuredRun[]> {
  let cache = measuredByDb.get(db);
  if (!cache) {
    cache = new TtlCache<MeasuredRun[]>(MEASURED_TTL_MS, 1_000);
    measuredByDb.set(db, cache);
  }
  const key = `${provider}:${model}`;
  const cached = cache.get(key);
  if (cached) return cached;
  const { rows } = await db.query<{ ms: number; seconds: number | null }>(
    `SELECT (extract(epoch FROM completed_at - started_at) * 1000)::float8 AS ms,
            CASE WHEN jsonb_typeof(input->'duration') = 'number' THEN (input->>'duration')::float8 END AS seconds
       FROM jobs
      WHERE model = $1 AND provider = $2 AND status = 'completed' AND started_at IS NOT NULL
        AND completed_at > now() - make_interval(days => $3)
        AND cached IS NOT TRUE
      ORDER BY completed_at DESC
      LIMIT $4`,
    [model, provider, RECENT_DAYS, RECENT_RUNS],
  );
  const runs = rows.map((row) => ({
    ms: Number(row.ms),
    seconds: row.seconds === null ? null : Number(row.seconds),
  }));
  // Until there are enough, each new run may be the one that makes it: ask again next time.
  if (runs.length >= MIN_MEASURED_RUNS) cache.set(key, runs);
  return runs;
}
