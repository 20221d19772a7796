import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorEnvelope } from '../../contract/errors.ts';
import { createPool } from '../db/pool.ts';
import { waitForJob } from '../testing/server-journeys.ts';
import { createTestApp, signUp, type TestApp } from '../testing/test-app.ts';

describe('health, readiness and metrics', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers liveness and readiness with each dependency checked', async () => {
    const live = await t.request('/healthz');
    expect(live.status).toBe(200);
    const ready = await t.request('/readyz');
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({
      status: 'ready',
      checks: { database: 'ok', queue: 'ok', storage: 'ok' },
    });
  });

  it('answers 503 naming the database and the queue when PostgreSQL cannot be reached', async () => {
    // A real pool to a port where no PostgreSQL listens: what a process sees when its database is gone.
    const before = t.services.db;
    const gone = createPool('postgres://postgres@127.0.0.1:1/none');
    t.services.db = gone;
    try {
      const response = await t.request('/readyz');
      expect(response.status).toBe(503);
      const { error } = ErrorEnvelope.parse(await response.json());
      expect(error.code).toBe('service_unavailable');
      expect(error.message).toBe('Not ready: database, queue unreachable.');
      expect(error.details).toEqual({
        checks: { database: 'unreachable', queue: 'unreachable', storage: 'ok' },
      });
      // Liveness does not depend on the database: the process itself answers.
      expect((await t.request('/healthz')).status).toBe(200);
    } finally {
      t.services.db = before;
      await gone.end();
    }
  });

  it('counts requests by route pattern, never by raw id, and job outcomes by tool and provider', async () => {
    const session = await signUp(t);
    const client = t.clientFor(session.api_key);
    const job = await client.createImage({ body: { model: 'local-sketch', prompt: 'metrics' } });
    expect((await waitForJob(client, job.id)).status).toBe('completed');
    const text = await (await t.request('/metrics')).text();
    expect(
      sample(text, 'http_requests_total', { method: 'GET', route: '/v2/jobs/:id', status: '200' }),
    ).toBeGreaterThan(0);
    expect(sample(text, 'http_request_duration_seconds_count', { method: 'POST', route: '/v2/image' })).toBe(
      1,
    );
    expect(text).not.toContain(job.id);
    expect(
      sample(text, 'jobs_finished_total', { tool: 'image', provider: 'local', status: 'completed' }),
    ).toBe(1);
    expect(sample(text, 'queue_depth', { queue: 'job-run', state: 'waiting' })).toBe(0);
    expect(sample(text, 'queue_oldest_waiting_seconds', { queue: 'job-run' })).toBe(0);
    expect((await t.request('/v2/no-such-thing/123')).status).toBe(404);
    const after = await (await t.request('/metrics')).text();
    expect(sample(after, 'http_requests_total', { method: 'GET', route: 'unmatched', status: '404' })).toBe(
      1,
    );
    expect(after).not.toContain('no-such-thing');
  });
});

describe('metrics behind METRICS_TOKEN', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ METRICS_TOKEN: 'metrics-token-0123456789' }, { work: false });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses a scrape without the token with the error envelope, and answers one with it', async () => {
    const refused = await t.request('/metrics', { headers: { authorization: 'Bearer wrong-token' } });
    expect(refused.status).toBe(401);
    expect(ErrorEnvelope.parse(await refused.json()).error.code).toBe('unauthorized');
    const scraped = await t.request('/metrics', {
      headers: { authorization: 'Bearer metrics-token-0123456789' },
    });
    expect(scraped.status).toBe(200);
    expect(scraped.headers.get('content-type')).toContain('text/plain');
    expect(await scraped.text()).toContain('# TYPE http_requests_total counter');
  });
});

/** The value of the one sample of `name` whose labels include `labels` (any order); NaN when none. */
function sample(text: string, name: string, labels: Record<string, string>): number {
  for (const line of text.split('\n')) {
    const match = line.match(/^([a-z_]+)\{(.*)\} (\S+)$/);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...match[2]!.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([k, v]) => found[k] === v)) return Number(match[3]);
  }
  return Number.NaN;
}
