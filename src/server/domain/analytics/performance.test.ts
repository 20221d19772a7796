import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AnalyticsPerformance,
  AnalyticsPerformanceQuery,
  AnalyticsPerformanceTimeseries,
  AnalyticsPerformanceTimeseriesQuery,
  type LatencyPercentiles,
  PERFORMANCE_HISTOGRAM_ERROR,
  type PerformanceFigures,
} from '../../../contract/analytics-performance.ts';
import { createTestApp, signUp, type TestApp } from '../../testing/test-app.ts';
import { insertJob, insertTeam } from './analytics-test-support.ts';
import { performanceCsv } from './csv.ts';
import type { Viewer } from './filters.ts';
import {
  analyticsPerformance,
  analyticsPerformanceTimeseries,
  type PerformanceReads,
} from './performance.ts';
import { rebuildPerformanceRollup } from './performance-rebuild.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({}, { work: false });
});
afterAll(() => t.close());

const full = (teamId: string): Viewer => ({
  teamId,
  scope: 'full',
  personId: null,
  role: 'owner',
  apiKeyIds: [],
});

/** A small seeded generator, so a failure can be replayed from the seed the test prints. */
function generator(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

/** The brute-force reading of percentile_cont: linear interpolation between the closest ranks. */
function percentile(sorted: number[], fraction: number): number {
  const position = fraction * (sorted.length - 1);
  const low = Math.floor(position);
  const high = Math.ceil(position);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (position - low);
}

function bruteForce(values: number[]): LatencyPercentiles | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return {
    samples: sorted.length,
    p50_ms: percentile(sorted, 0.5),
    p90_ms: percentile(sorted, 0.9),
    p99_ms: percentile(sorted, 0.99),
  };
}

/**
 * Exact answers match to the microsecond; histogram answers within the stated bound: 2.5% of the exact
 * value plus 0.5 ms (and a hair for floating point).
 */
function expectClose(
  actual: LatencyPercentiles | null,
  expected: LatencyPercentiles | null,
  label: string,
  method: 'exact' | 'histogram' = 'exact',
) {
  if (expected === null) return expect(actual, label).toBeNull();
  expect(actual, label).not.toBeNull();
  expect(actual!.samples, label).toBe(expected.samples);
  for (const k of ['p50_ms', 'p90_ms', 'p99_ms'] as const) {
    if (method === 'exact') expect(actual![k], `${label} ${k}`).toBeCloseTo(expected[k], 3);
    else {
      const bound = PERFORMANCE_HISTOGRAM_ERROR * expected[k] + 0.5 + 1e-6;
      expect(
        Math.abs(actual![k] - expected[k]),
        `${label} ${k} (${actual![k]} vs ${expected[k]})`,
      ).toBeLessThanOrEqual(bound);
    }
  }
}

interface Generated {
  model: string;
  provider: string;
  status: 'completed' | 'failed' | 'cancelled' | 'running';
  created: number;
  moments: {
    started?: number;
    submitted?: number;
    providerStarted?: number;
    providerFinished?: number;
    completed?: number;
  };
  errorCode: string | null;
  inRange: boolean;
}

const FROM = Date.parse('2026-03-01T00:00:00Z');
const TO = Date.parse('2026-03-08T00:00:00Z');
const iso = (ms: number | undefined) => (ms === undefined ? null : new Date(ms).toISOString());

describe('GET /v2/analytics/performance figures', () => {
  const seed = Number(process.env.PERF_SEED ?? Date.now() % 1_000_000);
  const random = generator(seed);
  const pick = <T>(values: readonly T[]) => values[Math.floor(random() * values.length)]!;
  const jobs: Generated[] = [];
  let teamId: string;

  beforeAll(async () => {
    teamId = await insertTeam(t.db);
    for (let i = 0; i < 240; i++) {
      const model = pick(['flux-dev', 'kling-video', 'local-sketch']);
      const provider = model === 'local-sketch' ? 'local' : pick(['fal', 'replicate']);
      const status = pick(['completed', 'completed', 'completed', 'failed', 'cancelled', 'running'] as const);
      // Some jobs fall just outside the range, to check its bounds.
      const inRange = random() < 0.9;
      const created = inRange
        ? FROM + Math.floor(random() * (TO - FROM))
        : pick([FROM - 1 - Math.floor(random() * 1e6), TO + Math.floor(random() * 1e6)]);
      const step = () => Math.floor(random() * 20_000);
      const moments: Generated['moments'] = {};
      let at = created;
      if (status !== 'running' || random() < 0.5) moments.started = at += step();
      if (provider !== 'local' && moments.started !== undefined) {
        // An external provider records its moments, each sometimes missing (an old job, a lost poll).
        if (random() < 0.9) moments.submitted = at += step();
        if (random() < 0.8) moments.providerStarted = at += step();
        if (random() < 0.8) moments.providerFinished = at += step() * 10;
      }
      if (status !== 'running') moments.completed = at += step();
      const errorCode =
        // An imported job's code may hold a space: the rollup's reads still keep it whole.
        status === 'failed' ? pick(['provider_error', 'timeout', 'content_policy', 'rate limited']) : null;
      jobs.push({ model, provider, status, created, moments, errorCode, inRange });
      await insertJob(t.db, teamId, {
        at: iso(created)!,
        model,
        provider,
        status,
        startedAt: iso(moments.started),
        submittedAt: iso(moments.submitted),
        providerStartedAt: iso(moments.providerStarted),
        providerFinishedAt: iso(moments.providerFinished),
        completedAt: iso(moments.completed),
        errorCode,
      });
    }
  });

  /** The brute-force figures of a set of generated jobs (those finished). */
  function expectedFigures(
    group: Generated[],
    actual: PerformanceFigures,
    label: string,
    method: 'exact' | 'histogram',
  ) {
    const count = (status: string) => group.filter((j) => j.status === status).length;
    expect(actual.jobs, label).toBe(group.length);
    expect([actual.completed, actual.failed, actual.cancelled], label).toEqual([
      count('completed'),
      count('failed'),
      count('cancelled'),
    ]);
    const decided = count('completed') + count('failed');
    if (decided === 0) expect(actual.failure_rate, label).toBeNull();
    else expect(actual.failure_rate, label).toBeCloseTo(count('failed') / decided, 12);
    const done = group.filter((j) => j.status === 'completed');
    const span = (
      end: keyof Generated['moments'] | 'created',
      start: keyof Generated['moments'] | 'created',
    ) =>
      done.flatMap((j) => {
        const a = start === 'created' ? j.created : j.moments[start];
        const b = end === 'created' ? j.created : j.moments[end];
        return a === undefined || b === undefined ? [] : [b - a];
      });
    expectClose(actual.total, bruteForce(span('completed', 'created')), `${label} total`, method);
    expectClose(actual.phases.queued, bruteForce(span('started', 'created')), `${label} queued`, method);
    expectClose(
      actual.phases.provider_queue,
      bruteForce(span('providerStarted', 'submitted')),
      `${label} provider queue`,
      method,
    );
    expectClose(
      actual.phases.provider_run,
      bruteForce(span('providerFinished', 'providerStarted')),
      `${label} provider run`,
      method,
    );
    expectClose(
      actual.phases.downloading,
      bruteForce(span('completed', 'providerFinished')),
      `${label} downloading`,
      method,
    );
  }

  const byModel = (list: Generated[]) => {
    const groups = new Map<string, Generated[]>();
    for (const j of list)
      groups.set(`${j.model}/${j.provider}`, [...(groups.get(`${j.model}/${j.provider}`) ?? []), j]);
    return groups;
  };

  // A bound off the hour (read from the jobs) and whole hours, days and a month (read from the rollup).
  const ranges = [
    { from: iso(FROM), to: iso(TO), timezone: 'UTC' },
    { from: '2026-02-20T10:17:00Z', to: '2026-03-05T07:45:30Z', timezone: 'UTC' },
    { from: '2026-01-01', to: '2026-04-01', timezone: 'Asia/Kolkata' },
    { from: '2026-02-01', to: '2026-05-01', timezone: 'UTC' },
  ];

  for (const reads of ['exact', 'rollup', 'auto'] as PerformanceReads[]) {
    it(`match a brute-force computation over the rows, reads ${reads} (seed ${seed})`, async () => {
      for (const range of ranges) {
        const query = AnalyticsPerformanceQuery.parse(range);
        const answer = await analyticsPerformance(t.db, full(teamId), query, undefined, reads);
        AnalyticsPerformance.parse(answer);
        const method = reads === 'rollup' ? 'histogram' : 'exact';
        expect(answer.meta.percentiles).toBe(method);
        const from = Date.parse(answer.meta.from);
        const to = Date.parse(answer.meta.to);
        const groups = byModel(
          jobs.filter((j) => j.created >= from && j.created < to && j.status !== 'running'),
        );
        expect(answer.data.map((r) => `${r.model}/${r.provider}`).sort()).toEqual([...groups.keys()].sort());
        for (const row of answer.data) {
          const label = `${range.from}..${range.to} ${row.model}/${row.provider}`;
          const group = groups.get(`${row.model}/${row.provider}`)!;
          expectedFigures(group, row, label, method);
          const codes = new Map<string, number>();
          for (const j of group) if (j.errorCode) codes.set(j.errorCode, (codes.get(j.errorCode) ?? 0) + 1);
          const expected = [...codes]
            .map(([code, n]) => ({ code, count: n }))
            .sort((a, b) => b.count - a.count || a.code.localeCompare(b.code))
            .slice(0, 5);
          expect(row.top_errors, label).toEqual(expected);
        }
        // Most jobs first.
        expect(answer.data.map((r) => r.jobs)).toEqual(
          [...answer.data.map((r) => r.jobs)].sort((a, b) => b - a),
        );
      }
    });

    it(`the series matches a brute-force computation per bucket, reads ${reads} (seed ${seed})`, async () => {
      const cases = [
        { ...ranges[0]!, bucket: 'day' },
        { ...ranges[1]!, bucket: 'hour' },
        { ...ranges[2]!, bucket: 'week' },
        { from: '2026-02-01', to: '2026-04-01', timezone: 'America/New_York', bucket: 'month' },
        // Local days off UTC: each its UTC day and hours added and taken away at its ends.
        { from: '2026-02-28', to: '2026-03-08', timezone: 'Europe/Paris', bucket: 'day' },
      ];
      for (const c of cases) {
        const query = AnalyticsPerformanceTimeseriesQuery.parse(c);
        const answer = await analyticsPerformanceTimeseries(t.db, full(teamId), query, undefined, reads);
        AnalyticsPerformanceTimeseries.parse(answer);
        const method = reads === 'rollup' ? 'histogram' : 'exact';
        expect(answer.meta.percentiles).toBe(method);
        expect(answer.meta.bucket).toBe(c.bucket);
        expect(answer.data[0]!.start).toBe(answer.meta.from);
        expect(answer.data.at(-1)!.end).toBe(answer.meta.to);
        for (const bucket of answer.data) {
          const start = Date.parse(bucket.start);
          const end = Date.parse(bucket.end);
          const inside = jobs.filter((j) => j.created >= start && j.created < end && j.status !== 'running');
          const label = `${c.bucket} ${bucket.start}`;
          expectedFigures(inside, bucket, label, method);
          const groups = byModel(inside);
          expect(bucket.models.map((m) => `${m.model}/${m.provider}`).sort(), label).toEqual(
            [...groups.keys()].sort(),
          );
          for (const m of bucket.models)
            expectedFigures(
              groups.get(`${m.model}/${m.provider}`)!,
              m,
              `${label} ${m.model}/${m.provider}`,
              method,
            );
        }
      }
    });
  }

  it('applies the spend filters (model)', async () => {
    const answer = await analyticsPerformance(
      t.db,
      full(teamId),
      AnalyticsPerformanceQuery.parse({ from: iso(FROM), to: iso(TO), model: 'local-sketch' }),
    );
    expect(answer.data.every((r) => r.model === 'local-sketch')).toBe(true);
    expect(answer.meta.filters.model).toEqual(['local-sketch']);
    expect(answer.meta.time_basis).toBe('job_created_at');
  });
});

describe('the performance rollup (migration 028)', () => {
  /** The rollup rebuilt from the jobs table by brute force, as sorted lines. */
  async function rebuilt(teamId: string): Promise<string[]> {
    const { rows } = await t.db.query<{ line: string }>(
      `SELECT concat_ws(' ', grain, extract(epoch FROM start)::bigint, model, provider, tool, kind, key, n) AS line
         FROM (SELECT g.grain, g.start, j.model, j.provider, j.tool, e.kind, e.key, count(*) AS n
                 FROM jobs j
                 CROSS JOIN LATERAL (VALUES
                   ('status', CASE WHEN j.status IN ('completed', 'failed', 'cancelled') THEN j.status END),
                   ('error', CASE WHEN j.status = 'failed' THEN coalesce(j.error->>'code', 'unknown') END),
                   ('total', CASE WHEN j.status = 'completed' THEN performance_bucket(j.completed_at - j.created_at) END),
                   ('queued', CASE WHEN j.status = 'completed' THEN performance_bucket(j.started_at - j.created_at) END),
                   ('provider_queue', CASE WHEN j.status = 'completed'
                                           THEN performance_bucket(j.provider_started_at - j.submitted_at) END),
                   ('provider_run', CASE WHEN j.status = 'completed'
                                         THEN performance_bucket(j.provider_finished_at - j.provider_started_at) END),
                   ('downloading', CASE WHEN j.status = 'completed'
                                        THEN performance_bucket(j.completed_at - j.provider_finished_at) END)) e(kind, key)
                 CROSS JOIN LATERAL (VALUES
                   ('hour', date_trunc('hour', j.created_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'),
                   ('day', date_trunc('day', j.created_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'),
                   ('month', date_trunc('month', j.created_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC')) g(grain, start)
                WHERE j.team_id = $1 AND e.key IS NOT NULL
                GROUP BY 1, 2, 3, 4, 5, 6, 7) r
        ORDER BY 1`,
      [teamId],
    );
    return rows.map((r) => r.line);
  }

  async function kept(teamId: string): Promise<string[]> {
    const { rows } = await t.db.query<{ line: string }>(
      `SELECT concat_ws(' ', grain, extract(epoch FROM period_start)::bigint, model, provider, tool, kind, key, n)
                AS line
         FROM performance_rollup WHERE team_id = $1 ORDER BY 1`,
      [teamId],
    );
    return rows.map((r) => r.line);
  }

  it('stays equal to the jobs it counts through inserts, status changes, edits and deletes', async () => {
    const teamId = await insertTeam(t.db);
    const random = generator(7);
    const ids: string[] = [];
    for (let i = 0; i < 60; i++) {
      const created = Date.parse('2026-05-31T20:00:00Z') + Math.floor(random() * 8 * 3_600_000);
      const status = (['queued', 'running', 'completed', 'failed', 'cancelled'] as const)[i % 5]!;
      ids.push(
        await insertJob(t.db, teamId, {
          at: iso(created)!,
          model: random() < 0.5 ? 'flux-dev' : 'local-sketch',
          provider: random() < 0.5 ? 'fal' : 'local',
          status,
          startedAt: status === 'queued' ? null : iso(created + 5),
          completedAt: ['completed', 'failed', 'cancelled'].includes(status)
            ? iso(created + 900 + i * 37)
            : null,
          errorCode: status === 'failed' ? (i % 2 ? 'timeout' : 'provider_error') : null,
        }),
      );
    }
    expect(await kept(teamId)).toEqual(await rebuilt(teamId));
    expect((await kept(teamId)).length).toBeGreaterThan(0);
    // A running job completes, a completed one fails, one moves to another hour, one is deleted.
    await t.db.query(
      `UPDATE jobs SET status = 'completed', completed_at = created_at + interval '3 seconds' WHERE id = $1`,
      [ids[1]],
    );
    await t.db.query(
      `UPDATE jobs SET status = 'failed', error = '{"code":"content_policy","message":"x"}' WHERE id = $1`,
      [ids[2]],
    );
    await t.db.query(`UPDATE jobs SET created_at = created_at - interval '2 hours' WHERE id = $1`, [ids[7]]);
    await t.db.query(
      `UPDATE jobs SET provider_finished_at = completed_at - interval '1 second' WHERE id = $1`,
      [ids[12]],
    );
    await t.db.query(`DELETE FROM jobs WHERE id = ANY($1)`, [[ids[17], ids[4]]]);
    await t.db.query(`UPDATE jobs SET status = 'cancelled' WHERE id = ANY($1)`, [ids.slice(20, 30)]);
    expect(await kept(teamId)).toEqual(await rebuilt(teamId));
    // Rebuilt in bulk (as the bench loads a million jobs), the rollup holds the rows the trigger kept.
    const keptByTrigger = await kept(teamId);
    await t.db.query('DELETE FROM performance_rollup WHERE team_id = $1', [teamId]);
    await rebuildPerformanceRollup(t.db, teamId);
    expect(await kept(teamId)).toEqual(keptByTrigger);
    // Everything gone: nothing kept.
    await t.db.query(`DELETE FROM jobs WHERE team_id = $1`, [teamId]);
    expect(await kept(teamId)).toEqual([]);
  });
});

describe('GET /v2/analytics/performance over HTTP', () => {
  it('answers the typed client, and only with the caller team’s jobs', async () => {
    const other = await insertTeam(t.db);
    await insertJob(t.db, other, {
      at: new Date().toISOString(),
      model: 'flux-dev',
      status: 'failed',
      errorCode: 'x',
    });
    const { api_key } = await signUp(t);
    const client = t.clientFor(api_key);
    const answer = await client.getAnalyticsPerformance({});
    expect(AnalyticsPerformance.parse(answer).data).toEqual([]);
    const bad = await t.request('/v2/analytics/performance?from=2026-01-02&to=2026-01-01', {
      headers: { authorization: `Bearer ${api_key}` },
    });
    expect(bad.status).toBe(422);
  });

  it('answers the series and both CSVs', async () => {
    const { api_key } = await signUp(t);
    const client = t.clientFor(api_key);
    const series = await client.getAnalyticsPerformanceTimeseries({
      query: { from: '2026-03-01', to: '2026-03-04', bucket: 'day' },
    });
    expect(AnalyticsPerformanceTimeseries.parse(series).data.map((b) => [b.start, b.jobs, b.models])).toEqual(
      [
        ['2026-03-01T00:00:00.000Z', 0, []],
        ['2026-03-02T00:00:00.000Z', 0, []],
        ['2026-03-03T00:00:00.000Z', 0, []],
      ],
    );
    const headers = { authorization: `Bearer ${api_key}` };
    const csv = await t.request('/v2/analytics/performance?format=csv&from=2026-03-01&to=2026-03-04', {
      headers,
    });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(csv.headers.get('content-disposition')).toContain(
      'analytics-performance-2026-03-01-2026-03-04.csv',
    );
    expect((await csv.text()).split('\r\n')[0]).toMatch(
      /^model,provider,jobs,completed,failed,cancelled,failure_rate,total_samples,total_p50_ms/,
    );
    const seriesCsv = await t.request('/v2/analytics/performance/timeseries?from=2026-03-01&to=2026-03-03', {
      headers: { ...headers, accept: 'text/csv' },
    });
    const lines = (await seriesCsv.text()).split('\r\n');
    expect(lines[0]).toMatch(/^start,end,model,provider,jobs,/);
    expect(lines[1]).toMatch(/^2026-03-01T00:00:00.000Z,2026-03-02T00:00:00.000Z,,,0,0,0,0,,0,,,/);
    const bad = await t.request('/v2/analytics/performance/timeseries?bucket=year', { headers });
    expect(bad.status).toBe(422);
  });
});

describe('CSV of performance figures', () => {
  it('writes one row per model with its percentiles and top errors', () => {
    const span = { samples: 3, p50_ms: 1200, p90_ms: 1800.5, p99_ms: 1990 };
    const text = performanceCsv({
      data: [
        {
          model: 'flux-dev',
          provider: 'fal',
          jobs: 5,
          completed: 3,
          failed: 1,
          cancelled: 1,
          failure_rate: 0.25,
          total: span,
          phases: { queued: null, provider_queue: null, provider_run: span, downloading: null },
          top_errors: [{ code: 'timeout', count: 1 }],
        },
      ],
      meta: {} as AnalyticsPerformance['meta'],
    });
    expect(text.split('\r\n')[1]).toBe(
      'flux-dev,fal,5,3,1,1,0.25,3,1200,1800.5,1990,0,,,,0,,,,3,1200,1800.5,1990,0,,,,timeout:1',
    );
  });
});
