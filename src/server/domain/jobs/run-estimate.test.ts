import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Job } from '../../../contract/jobs.ts';
import { RunTime } from '../../../contract/run-times.ts';
import { failure, person } from '../../testing/team-test-support.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';
import { estimatedDurationMs, type MeasuredRun, MIN_MEASURED_RUNS, runEstimate } from './run-estimate.ts';

/**
 * The percentile by its definition, without sorting: the values at ranks ⌊h⌋ and ⌈h⌉ (h = (n − 1)·p),
 * each found by counting how many values lie below it, then read linearly between them.
 */
function bruteForcePercentile(values: readonly number[], fraction: number): number {
  const h = (values.length - 1) * fraction;
  const atRank = (rank: number) =>
    values.find((v) => {
      const below = values.filter((w) => w < v).length;
      const same = values.filter((w) => w === v).length;
      return below <= rank && rank < below + same;
    })!;
  const low = atRank(Math.floor(h));
  const high = atRank(Math.ceil(h));
  return low + (high - low) * (h - Math.floor(h));
}

/** A small generator with a seed, so a failing case can be replayed. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

describe('the expected run (one rule)', () => {
  it("is the catalog's typical time, said to be that, until enough runs are measured", () => {
    const few = Array.from({ length: MIN_MEASURED_RUNS - 1 }, () => ({ ms: 20_000, seconds: 60 }));
    expect(runEstimate(few, 60, 6_000)).toEqual({
      basis: 'typical',
      p50_ms: 6_000,
      p90_ms: 6_000,
      runs: MIN_MEASURED_RUNS - 1,
      scaled_to_seconds: null,
    });
  });

  it('is p50–p90 of the measured runs, as brute force over them says', () => {
    const next = random(29);
    for (let round = 0; round < 200; round++) {
      const count = MIN_MEASURED_RUNS + Math.floor(next() * 60);
      // Few distinct values too, so ties are tried.
      const runs: MeasuredRun[] = Array.from({ length: count }, () => ({
        ms: round % 3 === 0 ? 1_000 * Math.floor(next() * 4) : Math.round(next() * 90_000),
        seconds: null,
      }));
      const times = runs.map((run) => run.ms);
      const estimate = runEstimate(runs, null, 6_000);
      expect(estimate.basis).toBe('measured');
      expect(estimate.runs).toBe(count);
      expect(estimate.p50_ms).toBe(Math.round(bruteForcePercentile(times, 0.5)));
      expect(estimate.p90_ms).toBe(Math.round(bruteForcePercentile(times, 0.9)));
      expect(estimate.p50_ms).toBeLessThanOrEqual(estimate.p90_ms);
    }
  });

  it('scales by the length asked for, from the measured time per second', () => {
    const next = random(33);
    for (let round = 0; round < 100; round++) {
      const runs: MeasuredRun[] = Array.from({ length: MIN_MEASURED_RUNS + (round % 20) }, () => ({
        ms: 500 + Math.round(next() * 40_000),
        seconds: 1 + Math.floor(next() * 10),
      }));
      const perSecond = runs.map((run) => run.ms / run.seconds!);
      const asked = 1 + Math.floor(next() * 60);
      expect(runEstimate(runs, asked, 6_000)).toEqual({
        basis: 'measured',
        p50_ms: Math.round(bruteForcePercentile(perSecond, 0.5) * asked),
        p90_ms: Math.round(bruteForcePercentile(perSecond, 0.9) * asked),
        runs: runs.length,
        scaled_to_seconds: asked,
      });
    }
    // 5 s videos took 2 s to make: a 60 s one takes about 24 s, not the catalog's 6 s.
    const fiveSecond = [1_900, 2_000, 2_000, 2_000, 2_100].map((ms) => ({ ms, seconds: 5 }));
    expect(runEstimate(fiveSecond, 60, 6_000)).toMatchObject({ p50_ms: 24_000, scaled_to_seconds: 60 });
    // No length asked for: the runs as they took.
    expect(runEstimate(fiveSecond, null, 6_000)).toMatchObject({ p50_ms: 2_000, scaled_to_seconds: null });
  });

  it('does not scale from runs that never said their length', () => {
    const runs = [1_000, 2_000, 3_000, 4_000, 5_000].map((ms) => ({ ms, seconds: null }));
    expect(runEstimate(runs, 60, 6_000)).toMatchObject({ p50_ms: 3_000, scaled_to_seconds: null });
  });

  it("gives a job's one number as the range's p50", () => {
    const runs = [1_000, 2_000, 3_000, 4_000, 50_000].map((ms) => ({ ms, seconds: null }));
    expect(estimatedDurationMs(runEstimate(runs, null, 6_000))).toBe(3_000);
  });
});

describe('measured on this server', () => {
  let t: TestApp;
  beforeAll(async () => {
    // No workers: the jobs made here stay queued, and the only runs are the ones the tests measure in.
    t = await createTestApp({}, { work: false });
  });
  afterAll(() => t.close());

  /** A completed run of `local-motion` that took `ms` for `seconds` of video, finished a minute ago. */
  async function measuredMotion(
    teamId: string,
    ms: number,
    seconds: number,
    extra: { cached?: boolean } = {},
  ) {
    await t.db.query(
      `INSERT INTO jobs (id, team_id, source, tool, model, status, input, estimated_duration_ms, estimated_cost_cents,
                         pricing_id, billing, provider, provider_model, cached, created_at, updated_at, started_at,
                         completed_at)
       VALUES ($1, $2, 'api', 'video', 'local-motion', 'completed', $3, 6000, 1, 'local:x', 'per_second', 'local',
               'local:local-motion', $5, now() - interval '2 minutes', now() - interval '1 minute',
               now() - interval '1 minute' - make_interval(secs => $4 / 1000.0), now() - interval '1 minute')`,
      [
        `job_${randomUUID().replaceAll('-', '')}`,
        teamId,
        JSON.stringify({ duration: seconds }),
        ms,
        extra.cached ?? false,
      ],
    );
  }

  async function motionRunTime(client: Awaited<ReturnType<typeof person>>['client'], duration?: number) {
    const answer = await client.listRunTimes({ query: duration === undefined ? {} : { duration } });
    for (const row of answer.data) RunTime.parse(row);
    return answer.data.find((row) => row.model === 'local-motion' && row.provider === 'local')!;
  }

  it("says the catalog's time, as typical, until enough runs are measured; then the measured range", async () => {
    const { client, teamId } = await person(t);
    const before = await motionRunTime(client, 60);
    expect(before.estimate).toEqual({
      basis: 'typical',
      p50_ms: 6_000,
      p90_ms: 6_000,
      runs: 0,
      scaled_to_seconds: null,
    });
    const created = await client.createVideo({
      body: { model: 'local-motion', prompt: 'waves', duration: 2 },
    });
    expect(created.estimated_duration_ms).toBe(6_000);
    expect(created.estimated_run).toEqual({ ...before.estimate });

    // Cached answers took no time: they are not runs.
    await measuredMotion(teamId, 1, 5, { cached: true });
    const took = [2_000, 2_500, 3_000, 4_000, 10_000, 2_200];
    for (const ms of took) await measuredMotion(teamId, ms, 5);
    const perSecond = took.map((ms) => ms / 5);
    const expected = {
      basis: 'measured',
      p50_ms: Math.round(bruteForcePercentile(perSecond, 0.5) * 60),
      p90_ms: Math.round(bruteForcePercentile(perSecond, 0.9) * 60),
      runs: took.length,
      scaled_to_seconds: 60,
    };
    const listed = await motionRunTime(client, 60);
    expect(listed.estimate).toEqual(expected);

    // The job asked the same gets the same estimate, its one number the p50.
    const job = Job.parse(
      await client.createVideo({ body: { model: 'local-motion', prompt: 'waves', duration: 60 } }),
    );
    expect(job.estimated_run).toEqual(expected);
    expect(job.estimated_duration_ms).toBe(expected.p50_ms);
    expect((await client.getJob({ params: { id: job.id } })).estimated_run).toEqual(expected);

    // No length asked for: the runs as they took.
    expect((await motionRunTime(client)).estimate).toMatchObject({
      basis: 'measured',
      p50_ms: Math.round(bruteForcePercentile(took, 0.5)),
      scaled_to_seconds: null,
    });
  });

  it('refuses a length that is not a positive number', async () => {
    const { client } = await person(t);
    const error = await failure(client.listRunTimes({ query: { duration: -1 } }));
    expect(error.status).toBe(422);
    expect(error.code).toBe('invalid_request');
  });

  it('is asked for with a key or a session, never by nobody', async () => {
    const answer = await t.request('/v2/run-times');
    expect(answer.status).toBe(401);
  });
});
