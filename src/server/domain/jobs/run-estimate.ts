import { MIN_MEASURED_RUNS, type RunEstimate } from '../../../contract/run-times.ts';
import type { Queryable } from '../../db/pool.ts';
import type { ModelDefinition } from '../catalog/types.ts';
import { TtlCache } from '../ttl-cache.ts';

/*
 * How long a run takes: the one rule (issues #29 and #33). A job's `estimated_duration_ms` and
 * `estimated_run`, `GET /v2/run-times`, and through them the playground's picker, its text before Run and
 * the followed job's countdown all come from `runEstimate` below. A 60 s video estimated at the catalog's
 * 6 s, then taking 20 s, told people nothing; neither did a picker and a form that disagreed.
 */

export { MIN_MEASURED_RUNS };

/** One measured run: how long it ran, and the length it was asked for (`duration`), when it was. */
export interface MeasuredRun {
  ms: number;
  seconds: number | null;
}

/** The most recent runs count: engines and providers change speed. Enough for a p90 that is not the max. */
export const RECENT_RUNS = 50;
export const RECENT_DAYS = 30;
/** Measurements change slowly; each process reads them at most this often. */
const MEASURED_TTL_MS = 30_000;

/**
 * Continuous percentile (linear interpolation between the closest ranks), as PostgreSQL's
 * `percentile_cont` and the performance analytics compute it: the same runs give the same figures there.
 */
export function percentile(values: readonly number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (sorted.length - 1) * fraction;
  const below = Math.floor(at);
  const low = sorted[below]!;
  const high = sorted[Math.min(below + 1, sorted.length - 1)]!;
  return low + (high - low) * (at - below);
}

/** The catalog's time for a model that names none: still the catalog's word, never shown as measured. */
const CATALOG_DEFAULT_RUN_MS = 10_000;

/** The catalog's typical run of a model: what the estimate is until this server has measured it. */
export function typicalRunMs(model: Pick<ModelDefinition, 'estimatedDurationMs'>): number {
  return model.estimatedDurationMs ?? CATALOG_DEFAULT_RUN_MS;
}

/** The `duration` a request asks for, in seconds, when it names one. */
export function askedSeconds(body: Record<string, unknown>): number | null {
  return typeof body.duration === 'number' && body.duration > 0 ? body.duration : null;
}

/**
 * The expected run of a request for an offer. `measured` once this server has `MIN_MEASURED_RUNS`
 * completed runs of it: p50–p90 of their times, or, when the request asks a length and enough runs said
 * theirs, of their time per second asked times the length asked (a 60 s video takes longer than a 5 s
 * one). Otherwise `typical`: the catalog's time for the model, at both ends, and said to be that.
 */
export function runEstimate(
  runs: readonly MeasuredRun[],
  asked: number | null,
  typicalMs: number,
): RunEstimate {
  if (runs.length < MIN_MEASURED_RUNS) {
    const typical = Math.round(typicalMs);
    return { basis: 'typical', p50_ms: typical, p90_ms: typical, runs: runs.length, scaled_to_seconds: null };
  }
  const perSecond = runs.flatMap((run) => (run.seconds && run.seconds > 0 ? [run.ms / run.seconds] : []));
  if (asked !== null && perSecond.length >= MIN_MEASURED_RUNS) {
    return {
      basis: 'measured',
      p50_ms: Math.round(percentile(perSecond, 0.5) * asked),
      p90_ms: Math.round(percentile(perSecond, 0.9) * asked),
      runs: perSecond.length,
      scaled_to_seconds: asked,
    };
  }
  const times = runs.map((run) => run.ms);
  return {
    basis: 'measured',
    p50_ms: Math.round(percentile(times, 0.5)),
    p90_ms: Math.round(percentile(times, 0.9)),
    runs: runs.length,
    scaled_to_seconds: null,
  };
}

/**
 * The job's one number (`estimated_duration_ms`) is the range's low end, p50: the time a run most likely
 * takes, which half the runs beat. A countdown to p90 would tell nine people in ten "almost done" long
 * after their result arrived; the range's high end is kept beside it (`estimated_run`) for "may take up to".
 */
export function estimatedDurationMs(estimate: RunEstimate): number {
  return estimate.p50_ms;
}

/**
 * The recent completed, uncached runs of each of `offers`, newest first. Each offer is read on its own
 * from jobs_model_runs_idx (model, provider, completed_at DESC, completed only) and stops at `RECENT_RUNS`,
 * so a list of every offer costs about a hundred short index reads however many jobs the server holds.
 */
async function readRuns(
  db: Queryable,
  offers: ReadonlyArray<{ model: string; provider: string }>,
): Promise<Array<MeasuredRun & { model: string; provider: string }>> {
  if (offers.length === 0) return [];
  const { rows } = await db.query<{ model: string; provider: string; ms: number; seconds: number | null }>(
    `SELECT offer.model, offer.provider, run.ms, run.seconds
       FROM unnest($3::text[], $4::text[]) AS offer(model, provider)
       CROSS JOIN LATERAL (
         SELECT (extract(epoch FROM completed_at - started_at) * 1000)::float8 AS ms,
                CASE WHEN jsonb_typeof(input->'duration') = 'number' THEN (input->>'duration')::float8 END AS seconds
           FROM jobs
          WHERE model = offer.model AND provider = offer.provider AND status = 'completed'
            AND started_at IS NOT NULL AND cached IS NOT TRUE
            AND completed_at > now() - make_interval(days => $1)
          ORDER BY completed_at DESC
          LIMIT $2
       ) run`,
    [RECENT_DAYS, RECENT_RUNS, offers.map((o) => o.model), offers.map((o) => o.provider)],
  );
  return rows.map((row) => ({
    model: row.model,
    provider: row.provider,
    ms: Number(row.ms),
    seconds: row.seconds === null ? null : Number(row.seconds),
  }));
}

/** Per database (a test's app, the server's pool): the recent runs of each offer, kept a little while. */
const measuredByDb = new WeakMap<Queryable, TtlCache<MeasuredRun[]>>();

function cacheOf(db: Queryable): TtlCache<MeasuredRun[]> {
  let cache = measuredByDb.get(db);
  if (!cache) {
    cache = new TtlCache<MeasuredRun[]>(MEASURED_TTL_MS, 1_000);
    measuredByDb.set(db, cache);
  }
  return cache;
}

const offerKey = (model: string, provider: string) => `${provider}:${model}`;

/** The recent completed runs of `model` at `provider` on this server. */
export async function measuredRuns(db: Queryable, model: string, provider: string): Promise<MeasuredRun[]> {
  const cache = cacheOf(db);
  const key = offerKey(model, provider);
  const cached = cache.get(key);
  if (cached) return cached;
  const runs = (await readRuns(db, [{ model, provider }])).map(({ ms, seconds }) => ({ ms, seconds }));
  // Until there are enough, each new run may be the one that makes it: ask again next time.
  if (runs.length >= MIN_MEASURED_RUNS) cache.set(key, runs);
  return runs;
}

/** The recent runs of each of `offers`, read at once (the list of run times): a lookup by offer. */
export async function measuredRunsOf(
  db: Queryable,
  offers: ReadonlyArray<{ model: string; provider: string }>,
): Promise<(model: string, provider: string) => MeasuredRun[]> {
  const byOffer = new Map<string, MeasuredRun[]>();
  for (const run of await readRuns(db, offers)) {
    const key = offerKey(run.model, run.provider);
    const list = byOffer.get(key) ?? [];
    list.push({ ms: run.ms, seconds: run.seconds });
    byOffer.set(key, list);
  }
  // Each offer's runs as its own read would give them: one with enough is kept for the job's estimate too.
  const cache = cacheOf(db);
  for (const [key, runs] of byOffer) if (runs.length >= MIN_MEASURED_RUNS) cache.set(key, runs);
  return (model, provider) => byOffer.get(offerKey(model, provider)) ?? [];
}
