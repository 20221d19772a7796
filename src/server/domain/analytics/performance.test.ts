import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AnalyticsPerformance,
  AnalyticsPerformanceQuery,
  type LatencyPercentiles,
} from '../../../contract/analytics-performance.ts';
import { createTestApp, signUp, type TestApp } from '../../testing/test-app.ts';
import { insertJob, insertTeam } from './analytics-test-support.ts';
import type { Viewer } from './filters.ts';
import { analyticsPerformance } from './performance.ts';

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

function expectClose(actual: LatencyPercentiles | null, expected: LatencyPercentiles | null, label: string) {
  if (expected === null) return expect(actual, label).toBeNull();
  expect(actual, label).not.toBeNull();
  expect(actual!.samples, label).toBe(expected.samples);
  for (const k of ['p50_ms', 'p90_ms', 'p99_ms'] as const)
    expect(actual![k], `${label} ${k}`).toBeCloseTo(expected[k], 3);
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
        status === 'failed' ? pick(['provider_error', 'timeout', 'content_policy', 'internal']) : null;
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

  it(`match a brute-force computation over the rows (seed ${seed})`, async () => {
    const answer = await analyticsPerformance(
      t.db,
      full(teamId),
      AnalyticsPerformanceQuery.parse({ from: iso(FROM), to: iso(TO) }),
    );
    AnalyticsPerformance.parse(answer);
    const counted = jobs.filter((j) => j.inRange && j.status !== 'running');
    const groups = new Map<string, Generated[]>();
    for (const j of counted)
      groups.set(`${j.model}/${j.provider}`, [...(groups.get(`${j.model}/${j.provider}`) ?? []), j]);
    expect(answer.data.map((r) => `${r.model}/${r.provider}`).sort()).toEqual([...groups.keys()].sort());

    for (const row of answer.data) {
      const group = groups.get(`${row.model}/${row.provider}`)!;
      const label = `${row.model}/${row.provider}`;
      const count = (status: string) => group.filter((j) => j.status === status).length;
      expect(row.jobs, label).toBe(group.length);
      expect([row.completed, row.failed, row.cancelled], label).toEqual([
        count('completed'),
        count('failed'),
        count('cancelled'),
      ]);
      const decided = count('completed') + count('failed');
      if (decided === 0) expect(row.failure_rate).toBeNull();
      else expect(row.failure_rate, label).toBeCloseTo(count('failed') / decided, 12);

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
      expectClose(row.total, bruteForce(span('completed', 'created')), `${label} total`);
      expectClose(row.phases.queued, bruteForce(span('started', 'created')), `${label} queued`);
      expectClose(
        row.phases.provider_queue,
        bruteForce(span('providerStarted', 'submitted')),
        `${label} provider queue`,
      );
      expectClose(
        row.phases.provider_run,
        bruteForce(span('providerFinished', 'providerStarted')),
        `${label} provider run`,
      );
      expectClose(
        row.phases.downloading,
        bruteForce(span('completed', 'providerFinished')),
        `${label} downloading`,
      );

      const codes = new Map<string, number>();
      for (const j of group) if (j.errorCode) codes.set(j.errorCode, (codes.get(j.errorCode) ?? 0) + 1);
      const expected = [...codes]
        .map(([code, n]) => ({ code, count: n }))
        .sort((a, b) => b.count - a.count || a.code.localeCompare(b.code))
        .slice(0, 5);
      expect(row.top_errors, label).toEqual(expected);
    }
    // Most jobs first.
    expect(answer.data.map((r) => r.jobs)).toEqual([...answer.data.map((r) => r.jobs)].sort((a, b) => b - a));
  });

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
});
