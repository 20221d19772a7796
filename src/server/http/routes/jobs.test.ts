import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ApiError } from '../../../client/api-error.ts';
import { Job, JobPage, JobPrice, JobStatusView } from '../../../contract/jobs.ts';
import { createTestApp, signUp, TEST_PUBLIC_URL, type TestApp } from '../../testing/test-app.ts';
import { waitForTerminal } from '../../testing/wait-for-terminal.ts';

let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await createTestApp({ SIGNUP_CREDITS: '1000' });
  key = (await signUp(t)).api_key;
});
afterAll(() => t.close());

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (e: unknown) => e as ApiError,
  );

async function ledgerOf(teamId: string) {
  const { rows } = await t.db.query<{ kind: string; delta_cents: number; job_id: string | null }>(
    'SELECT kind, delta_cents, job_id FROM credit_ledger WHERE team_id = $1 ORDER BY id',
    [teamId],
  );
  return rows;
}

describe('creating and running a job', () => {
  it('answers 202 with a fresh job, runs it on the local engine and stores the output as a file', async () => {
    const client = t.clientFor(key);
    const before = (await client.getMe()).balance_cents;
    const created = Job.parse(
      await client.createImage({
        body: { model: 'local-sketch', prompt: 'a red kite', aspect_ratio: '16:9' },
      }),
    );
    expect(created).toMatchObject({
      status: 'queued',
      tool: 'image',
      output: null,
      error: null,
      actual_cost_cents: null,
      provider: 'local',
      provider_model: 'local:local-sketch',
      pricing: { estimated: 1, actual: null, cached: null, billed_units: null, billing: 'per_image' },
      input: { model: 'local-sketch', prompt: 'a red kite', aspect_ratio: '16:9' },
    });
    expect(created.id).toMatch(/^job_/);
    expect(created.urls).toEqual({
      self: `${TEST_PUBLIC_URL}/v2/jobs/${created.id}`,
      status: `${TEST_PUBLIC_URL}/v2/jobs/${created.id}/status`,
      refresh: `${TEST_PUBLIC_URL}/v2/jobs/${created.id}/refresh`,
      cancel: `${TEST_PUBLIC_URL}/v2/jobs/${created.id}/cancel`,
      retry: `${TEST_PUBLIC_URL}/v2/jobs/${created.id}/retry`,
    });

    const done = Job.parse(await waitForTerminal(client, created.id));
    expect(done.status).toBe('completed');
    expect(done).toMatchObject({
      actual_cost_cents: 1,
      progress: null,
      progress_message: null,
      provider_status: 'succeeded',
    });
    expect(done.pricing).toMatchObject({ actual: 1, cached: false, billed_units: { images: 1 } });
    expect(done.started_at).not.toBeNull();
    const output = done.output!.outputs[0]!;
    expect(output).toMatchObject({ media_type: 'image/png' });
    expect(output.url).toMatch(new RegExp(`^${TEST_PUBLIC_URL}/media/file_`));
    const media = await t.request(new URL(output.url!).pathname);
    expect(media.status).toBe(200);
    expect(media.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await media.arrayBuffer()).length).toBe(output.size_bytes);

    const me = await client.getMe();
    expect(me.balance_cents).toBe(before - 1);
    const rows = (await ledgerOf(me.team.id)).filter((r) => r.job_id === created.id);
    expect(rows.map((r) => [r.kind, r.delta_cents])).toEqual([
      ['hold', -1],
      ['release', 1],
      ['settle', -1],
    ]);
    const lineage = await t.db.query('SELECT role FROM file_lineage WHERE job_id = $1', [created.id]);
    expect(lineage.rows).toEqual([{ role: 'output' }]);
  });

  it('serves identical deterministic work from the result cache at no cost', async () => {
    const client = t.clientFor(key);
    const body = { model: 'local-sketch', prompt: 'cache me', aspect_ratio: '1:1' };
    const first = await waitForTerminal(client, (await client.createImage({ body })).id);
    const balance = (await client.getMe()).balance_cents;
    const second = await waitForTerminal(client, (await client.createImage({ body })).id);
    expect(second.pricing).toMatchObject({ cached: true, actual: 0 });
    expect(second.output).toEqual(first.output);
    expect((await client.getMe()).balance_cents).toBe(balance);
    const bypass = await waitForTerminal(
      client,
      (await client.createImage({ body: { ...body, options: { cache: false } } })).id,
    );
    expect(bypass.pricing).toMatchObject({ cached: false, actual: 1 });
  });

  it('fails with invalid_input when the engine cannot use the request, and says why', async () => {
    const client = t.clientFor(key);
    const source = await waitForTerminal(
      client,
      (await client.createImage({ body: { model: 'local-sketch', prompt: 'source' } })).id,
    );
    const url = source.output!.outputs[0]!.url!;
    const job = await client.createImage({ body: { model: 'local-edit', files: [{ url }] } });
    const done = await waitForTerminal(client, job.id);
    expect(done.error).toMatchObject({
      code: 'invalid_input',
      message: expect.stringContaining('provider_options.local.operations'),
    });
    const edited = await client.createImage({
      body: {
        model: 'local-edit',
        files: [{ url }],
        provider_options: { local: { operations: [{ op: 'grayscale' }] } },
      },
    });
    const ok = await waitForTerminal(client, edited.id);
    expect(ok.status).toBe('completed');
    const lineage = await t.db.query('SELECT role FROM file_lineage WHERE job_id = $1 ORDER BY role', [
      edited.id,
    ]);
    expect(lineage.rows.map((r) => r.role)).toEqual(['input', 'output']);
  });

  it('is the same through POST /v2/tools/{tool_key}/call', async () => {
    const job = await t
      .clientFor(key)
      .callTool({ params: { tool_key: 'image' }, body: { model: 'local-sketch', prompt: 'generic' } });
    expect(job).toMatchObject({ status: 'queued', tool: 'image' });
    const bad = await failure(
      t.clientFor(key).callTool({ params: { tool_key: 'speech' }, body: { model: 'local-flite' } }),
    );
    expect(bad).toMatchObject({ status: 422, code: 'invalid_request' });
    expect(bad?.message).toContain('text');
  });

  it('fails a job whose engine cannot use its input, releasing the hold', async () => {
    const client = t.clientFor(key);
    const before = (await client.getMe()).balance_cents;
    const created = await client.createImage({
      body: {
        model: 'local-edit',
        prompt: 'x',
        files: [{ url: `${TEST_PUBLIC_URL}/media/file_aaaaaaaaaaaaaaaaaaaaaaaa/x.png` }],
        provider_options: { local: { operations: [{ op: 'grayscale' }] } },
      },
    });
    const done = await waitForTerminal(client, created.id);
    expect(done.status).toBe('failed');
    expect(done.error).toMatchObject({
      code: 'invalid_input',
      message: expect.stringContaining('There is no file at'),
    });
    expect(done.output).toBeNull();
    expect(done.actual_cost_cents).toBe(0);
    expect((await client.getMe()).balance_cents).toBe(before);
  });
});

describe('checks before a job is taken', () => {
  it('answers 422 naming the field at each limit', async () => {
    const client = t.clientFor(key);
    const long = await failure(
      client.createImage({ body: { model: 'local-sketch', prompt: 'x'.repeat(2001) } }),
    );
    expect(long).toMatchObject({ status: 422, code: 'invalid_request' });
    expect(long?.message).toContain('prompt');
    const files = Array.from({ length: 11 }, () => ({ url: 'https://example.com/a.png' }));
    expect(await failure(client.createImage({ body: { model: 'local-edit', files } }))).toMatchObject({
      status: 422,
    });
    expect(await failure(client.createSpeech({ body: { text: '' } }))).toMatchObject({ status: 422 });
    expect(await failure(client.createMusic({ body: { prompt: 'x', duration: 601 } }))).toMatchObject({
      status: 422,
    });
    const badKey = await failure(
      client.createImage({
        body: { model: 'local-sketch', prompt: 'x' },
        headers: { 'idempotency-key': 'k'.repeat(256) },
      }),
    );
    expect(badKey).toMatchObject({ status: 422 });
    expect(badKey?.message).toContain('idempotency-key');
  });

  it('answers 400 for a body that is not a JSON object', async () => {
    const response = await t.request('/v2/image', {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: '["a"]',
    });
    expect(response.status).toBe(400);
  });

  it('answers 404 model_not_found naming the model, plain or provider-pinned', async () => {
    for (const model of ['no-such-model', 'fal:local-sketch', 'tts-1']) {
      const error = await failure(t.clientFor(key).createImage({ body: { model, prompt: 'x' } }));
      expect(error).toMatchObject({ status: 404, code: 'model_not_found' });
      expect(error?.message).toContain(model);
    }
  });

  it('answers 404 model_retired naming the replacement for a model its provider shut down', async () => {
    for (const [model, replacement] of [
      ['gpt-image-1', 'gpt-image-2'],
      ['openai:dall-e-3', 'gpt-image-2'],
    ]) {
      const error = await failure(t.clientFor(key).createImage({ body: { model, prompt: 'x' } }));
      expect(error).toMatchObject({ status: 404, code: 'model_retired', details: { replacement } });
      expect(error?.message).toContain(replacement);
    }
    const video = await failure(t.clientFor(key).createVideo({ body: { model: 'sora-2', prompt: 'x' } }));
    expect(video).toMatchObject({ status: 404, code: 'model_retired', details: { replacement: 'veo-3.1' } });
  });

  it('answers 503 with how to enable a model whose providers are not configured', async () => {
    const error = await failure(
      t.clientFor(key).createImage({ body: { model: 'flux-schnell', prompt: 'x' } }),
    );
    expect(error).toMatchObject({ status: 503, code: 'provider_unavailable' });
    expect(error?.message).toContain('FAL_KEY');
  });

  it('answers 403 for input URLs on blocked or private hosts', async () => {
    const blocked = await createTestApp({ BLOCKED_DOMAINS: 'blocked.example' });
    try {
      const k = (await signUp(blocked)).api_key;
      for (const url of [
        'http://127.0.0.1/a.png',
        'http://[::ffff:7f00:1]/a.png',
        'http://0177.0.0.1/a.png',
        'http://2130706433/a.png',
        'http://localhost/a.png',
        'https://cdn.blocked.example/a.png',
        'http://169.254.169.254/latest/meta-data',
      ]) {
        const error = await failure(
          blocked.clientFor(k).createImage({ body: { model: 'local-edit', files: [{ url }] } }),
        );
        expect(error, url).toMatchObject({ status: 403, code: 'forbidden' });
      }
      const { rows } = await blocked.db.query('SELECT count(*)::int AS n FROM jobs');
      expect(rows[0].n).toBe(0);
    } finally {
      await blocked.close();
    }
  });

  it("answers the same 403 at creation for a render layer's or a pipeline step's URL, and takes nothing", async () => {
    const blocked = await createTestApp({ BLOCKED_DOMAINS: 'blocked.example' });
    try {
      const client = blocked.clientFor((await signUp(blocked)).api_key);
      for (const url of ['http://127.0.0.1/a.png', 'https://cdn.blocked.example/a.png']) {
        const layer = await failure(
          client.createRender({ body: { duration: 1, format: 'png', layers: [{ type: 'image', url }] } }),
        );
        expect(layer, url).toMatchObject({ status: 403, code: 'forbidden' });
        const step = await failure(
          client.runPipeline({
            body: {
              steps: [
                { id: 'pic', tool: 'image', input: { model: 'local-sketch', prompt: 'x' } },
                { id: 'edit', tool: 'image', input: { model: 'local-edit', prompt: 'x', files: [{ url }] } },
              ],
            },
          }),
        );
        expect(step, url).toMatchObject({ status: 403, code: 'forbidden' });
        // A step's webhook is refused as the job's own is.
        const hook = await failure(
          client.runPipeline({
            body: {
              steps: [
                {
                  id: 'pic',
                  tool: 'image',
                  input: { model: 'local-sketch', prompt: 'x', options: { webhook_url: url } },
                },
              ],
            },
          }),
        );
        expect(hook, url).toMatchObject({ status: 403, code: 'forbidden' });
      }
      const { rows } = await blocked.db.query('SELECT count(*)::int AS n FROM jobs');
      expect(rows[0].n).toBe(0);
      // A reference to another step's output is no URL to check, and goes through.
      const ok = await client.runPipeline({
        body: {
          steps: [
            { id: 'pic', tool: 'image', input: { model: 'local-sketch', prompt: 'x' } },
            {
              id: 'big',
              tool: 'image',
              input: { model: 'local-upscale', files: [{ url: '{{steps.pic.output.url}}' }] },
            },
          ],
        },
      });
      expect(ok.status).toBeTruthy();
    } finally {
      await blocked.close();
    }
  });

  it('files outputs into the folder named by X-Workspace-Id, and refuses an unknown one', async () => {
    const client = t.clientFor(key);
    const me = await client.getMe();
    const { rows } = await t.db.query<{ id: string }>(
      `INSERT INTO workspaces (team_id, name, slug) VALUES ($1, 'Posters', 'posters') RETURNING id`,
      [me.team.id],
    );
    const job = await client.createImage({
      body: { model: 'local-sketch', prompt: 'in a folder' },
      headers: { 'x-workspace-id': 'posters' },
    });
    expect(job.folder_id).toBe(rows[0]!.id);
    const unknown = await failure(
      client.createImage({
        body: { model: 'local-sketch', prompt: 'x' },
        headers: { 'x-workspace-id': 'nope' },
      }),
    );
    expect(unknown).toMatchObject({ status: 404, code: 'not_found' });
  });
});

describe('routing and limits', () => {
  it('routes an image start frame to the image-to-video variant of the same family', async () => {
    const client = t.clientFor(key);
    const plain = await client.createVideo({ body: { model: 'local-motion', prompt: 'waves', duration: 1 } });
    expect(plain.provider_model).toBe('local:local-motion');
    const frame = await waitForTerminal(
      client,
      (await client.createImage({ body: { model: 'local-sketch', prompt: 'a start frame' } })).id,
    );
    const withImage = await client.createVideo({
      body: { model: 'local-motion', duration: 1, files: [{ url: frame.output!.outputs[0]!.url! }] },
    });
    expect(withImage.provider_model).toBe('local:local-motion-i2v');
    expect((await waitForTerminal(client, withImage.id)).status).toBe('completed');
  });

  it('limits job creation per API key: 429 with Retry-After and RateLimit headers', async () => {
    const limited = await createTestApp({}, { work: false });
    try {
      const k = (await signUp(limited)).api_key;
      const send = () =>
        limited.request('/v2/image', {
          method: 'POST',
          headers: { authorization: `Bearer ${k}`, 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'local-sketch', prompt: 'limit' }),
        });
      // The window is a fixed clock minute: the server's clock is held early in one (Date alone is faked;
      // timers and the database run as usual), so all 301 requests fall in it however long they take.
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(Math.ceil(Date.now() / 60_000) * 60_000 + 1_000);
      const first = await send();
      expect(first.status).toBe(202);
      expect(first.headers.get('ratelimit-limit')).toBe('300');
      expect(first.headers.get('ratelimit-remaining')).toBe('299');
      for (let i = 1; i < 300; i++) expect((await send()).status).toBe(202);
      const refused = await send();
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(refused.headers.get('ratelimit-remaining')).toBe('0');
      expect((await refused.json()).error.code).toBe('rate_limited');
      // Another key of another account is not affected.
      const other = (await signUp(limited)).api_key;
      expect(
        (await limited.clientFor(other).createImage({ body: { model: 'local-sketch', prompt: 'x' } })).status,
      ).toBe('queued');
    } finally {
      vi.useRealTimers();
      await limited.close();
    }
  }, 45_000);
});

describe('idempotency', () => {
  it('turns 20 concurrent requests with one key into one job and one hold', async () => {
    const client = t.clientFor(key);
    const me = await client.getMe();
    const body = { model: 'local-sketch', prompt: 'once only', options: { cache: false } };
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, () =>
        client.createImage({ body, headers: { 'idempotency-key': 'same-key-20' } }),
      ),
    );
    const jobs = results
      .filter((r) => r.status === 'fulfilled')
      .map((r) => (r as PromiseFulfilledResult<{ id: string }>).value);
    expect(jobs).toHaveLength(20);
    expect(new Set(jobs.map((j) => j.id)).size).toBe(1);
    const holds = (await ledgerOf(me.team.id)).filter((r) => r.job_id === jobs[0]!.id && r.kind === 'hold');
    expect(holds).toHaveLength(1);
  });

  it('replays with 200 and refuses the key with another body', async () => {
    const body = { model: 'local-sketch', prompt: 'replay', options: { cache: false } };
    const first = await t.request('/v2/image', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        'idempotency-key': 'k-replay',
      },
      body: JSON.stringify(body),
    });
    expect(first.status).toBe(202);
    const again = await t.request('/v2/image', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        'idempotency-key': 'k-replay',
      },
      body: JSON.stringify(body),
    });
    expect(again.status).toBe(200);
    expect((await again.json()).id).toBe((await first.json()).id);
    const other = await failure(
      t
        .clientFor(key)
        .createImage({ body: { ...body, prompt: 'different' }, headers: { 'idempotency-key': 'k-replay' } }),
    );
    expect(other).toMatchObject({ status: 422, code: 'idempotency_key_reused' });
  });
});

describe('credits under concurrency', () => {
  it('accepts 10 of 50 concurrent jobs against a balance that covers 10; the balance never goes negative', async () => {
    const poor = await createTestApp({ SIGNUP_CREDITS: '10' }, { work: false });
    try {
      const k = (await signUp(poor)).api_key;
      const client = poor.clientFor(k);
      const results = await Promise.allSettled(
        Array.from({ length: 50 }, (_, i) =>
          client.createImage({ body: { model: 'local-sketch', prompt: `job ${i}` } }),
        ),
      );
      const accepted = results.filter((r) => r.status === 'fulfilled');
      const refused = results
        .filter((r) => r.status === 'rejected')
        .map((r) => (r as PromiseRejectedResult).reason as ApiError);
      expect(accepted).toHaveLength(10);
      expect(refused).toHaveLength(40);
      for (const error of refused) expect(error).toMatchObject({ status: 402, code: 'insufficient_balance' });
      const me = await client.getMe();
      expect(me.balance_cents).toBe(0);
      const { rows } = await poor.db.query<{ sum: number; min: number }>(
        'SELECT sum(delta_cents)::int AS sum, min(balance_after_cents)::int AS min FROM credit_ledger WHERE team_id = $1',
        [me.team.id],
      );
      expect(rows[0]).toEqual({ sum: 0, min: 0 });
    } finally {
      await poor.close();
    }
  });
});

describe('reading, cancelling and retrying jobs', () => {
  let idle: TestApp;
  let idleKey: string;
  beforeAll(async () => {
    idle = await createTestApp({}, { work: false }); // no workers: jobs stay queued
    idleKey = (await signUp(idle)).api_key;
  });
  afterAll(() => idle.close());

  it('cancels a queued job, releasing its hold, and retries it as a new linked job', async () => {
    const client = idle.clientFor(idleKey);
    const before = (await client.getMe()).balance_cents;
    const job = await client.createImage({ body: { model: 'local-sketch', prompt: 'to cancel' } });
    expect((await client.getMe()).balance_cents).toBe(before - 1);
    const cancelled = Job.parse(await client.cancelJob({ params: { id: job.id } }));
    // Known once it ends: the hold was released, so it was charged nothing (spec 2.1: null until known).
    expect(cancelled).toMatchObject({
      status: 'cancelled',
      error: { code: 'cancelled' },
      actual_cost_cents: 0,
      pricing: { actual: 0 },
    });
    expect(cancelled.completed_at).not.toBeNull();
    expect((await client.getMe()).balance_cents).toBe(before);
    expect(await client.cancelJob({ params: { id: job.id } })).toMatchObject({ status: 'cancelled' });

    const retried = await client.retryJob({ params: { id: job.id } });
    expect(retried).toMatchObject({ status: 'queued', retry_of: job.id, input: job.input });
    expect(retried.id).not.toBe(job.id);
    const notRetryable = await failure(client.retryJob({ params: { id: retried.id } }));
    expect(notRetryable).toMatchObject({ status: 409, code: 'conflict' });
  });

  it('answers the status view, the price breakdown and 404 for another team', async () => {
    const client = idle.clientFor(idleKey);
    const job = await client.createImage({ body: { model: 'local-sketch', prompt: 'priced' } });
    const status = JobStatusView.parse(await client.getJobStatus({ params: { id: job.id } }));
    expect(status).toMatchObject({ id: job.id, status: 'queued', terminal: false, started_at: null });
    const price = JobPrice.parse(await client.getJobPrice({ params: { id: job.id } }));
    expect(price).toMatchObject({
      job_id: job.id,
      estimated_cost_cents: 1,
      actual_cost_cents: null,
      billed_units: {},
      model: 'local-sketch',
      tool: 'image',
    });
    const stranger = (await signUp(idle)).api_key;
    const hidden = await failure(idle.clientFor(stranger).getJob({ params: { id: job.id } }));
    expect(hidden).toMatchObject({ status: 404, code: 'not_found' });
    expect(await failure(idle.clientFor(stranger).cancelJob({ params: { id: job.id } }))).toMatchObject({
      status: 404,
    });
  });

  it('pages through jobs made within the same millisecond without skipping any', async () => {
    const k = (await signUp(idle)).api_key;
    const client = idle.clientFor(k);
    const ids: string[] = [];
    for (let i = 0; i < 4; i++)
      ids.push((await client.createImage({ body: { model: 'local-sketch', prompt: `same ms ${i}` } })).id);
    // Microseconds apart, one millisecond for all: what a burst of creations can really give.
    for (const [i, id] of ids.entries()) {
      await idle.db.query(`UPDATE jobs SET created_at = $2::timestamptz WHERE id = $1`, [
        id,
        `2026-01-01T00:00:00.000${100 + i * 100}Z`,
      ]);
    }
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listJobs({ query: { limit: 1, ...(cursor ? { cursor } : {}) } });
      seen.push(...page.data.map((j) => j.id));
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual([...ids].reverse());
  });

  it('lists jobs newest first with filters and cursor pages', async () => {
    const k = (await signUp(idle)).api_key;
    const client = idle.clientFor(k);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++)
      ids.push((await client.createImage({ body: { model: 'local-sketch', prompt: `list ${i}` } })).id);
    const first = await client.listJobs({ query: { limit: 2 } });
    expect(first.data.map((j) => j.id)).toEqual([ids[4], ids[3]]);
    const second = await client.listJobs({ query: { limit: 2, cursor: first.next_cursor! } });
    expect(second.data.map((j) => j.id)).toEqual([ids[2], ids[1]]);
    const third = await client.listJobs({ query: { limit: 2, cursor: second.next_cursor! } });
    expect(third.data.map((j) => j.id)).toEqual([ids[0]]);
    expect(third.next_cursor).toBeNull();
    await client.cancelJob({ params: { id: ids[0]! } });
    expect((await client.listJobs({ query: { status: 'cancelled' } })).data.map((j) => j.id)).toEqual([
      ids[0],
    ]);
    expect((await client.listJobs({ query: { tool: 'speech' } })).data).toEqual([]);
    const later = await client.listJobs({
      query: { updated_since: new Date(Date.now() + 60_000).toISOString() },
    });
    expect(later.data).toEqual([]);
  });

  it("answers the server's clock with a page, so a feed can ask for only what changed since", async () => {
    const k = (await signUp(idle)).api_key;
    const client = idle.clientFor(k);
    const older = await client.createImage({ body: { model: 'local-sketch', prompt: 'before the read' } });
    const page = JobPage.parse(await client.listJobs({ query: {} }));
    expect(page.server_time).toBeDefined();
    expect(Date.parse(page.server_time!)).toBeGreaterThanOrEqual(Date.parse(older.updated_at));
    const quiet = await client.listJobs({ query: { updated_since: page.server_time } });
    expect(quiet.data.map((j) => j.id)).not.toContain(older.id);
    const newer = await client.createImage({ body: { model: 'local-sketch', prompt: 'after the read' } });
    const since = await client.listJobs({ query: { updated_since: page.server_time } });
    expect(since.data.map((j) => j.id)).toContain(newer.id);
  });
});

describe('the completion webhook of a real job', () => {
  it('arrives signed (verified with the standardwebhooks package) and is listed on the job', async () => {
    const { createServer } = await import('node:http');
    const { Webhook } = await import('standardwebhooks');
    const received: Array<{ headers: Record<string, string>; body: string }> = [];
    const listener = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      req.on('end', () => {
        received.push({ headers: req.headers as Record<string, string>, body });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const port = (listener.address() as { port: number }).port;
    const local = await createTestApp({ ALLOW_PRIVATE_NETWORK: 'true' });
    try {
      const session = await signUp(local);
      const client = local.clientFor(session.api_key);
      const job = await client.createImage({
        body: {
          model: 'local-sketch',
          prompt: 'notify me',
          options: { webhook_url: `http://127.0.0.1:${port}/hook` },
        },
      });
      for (let i = 0; i < 200 && received.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
      expect(received).toHaveLength(1);
      const { secret } = await local.clientFor(session.access_token).getWebhookSecret();
      const event = new Webhook(secret).verify(received[0]!.body, received[0]!.headers) as {
        type: string;
        data: { id: string; status: string };
      };
      expect(event.type).toBe('job.completed');
      expect(event.data).toMatchObject({ id: job.id, status: 'completed' });
      // The attempt is recorded once the receiver has answered: wait for it.
      let deliveries = await client.listJobWebhookDeliveries({ params: { id: job.id } });
      for (let i = 0; i < 100 && deliveries.data[0]?.response_status == null; i++) {
        await new Promise((r) => setTimeout(r, 50));
        deliveries = await client.listJobWebhookDeliveries({ params: { id: job.id } });
      }
      expect(deliveries.data[0]).toMatchObject({
        job_id: job.id,
        event_type: 'job.completed',
        response_status: 204,
      });
    } finally {
      await local.close();
      listener.close();
    }
  });
});
