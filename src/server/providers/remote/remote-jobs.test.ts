import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Job } from '../../../contract/jobs.ts';
import { requeueOrphans } from '../../domain/jobs/job-lease.ts';
import { RUN_REMOTE_JOB_QUEUE } from '../../domain/jobs/queue-names.ts';
import { runRemoteJobQueueJob } from '../../queue/jobs.ts';
import { createTestApp, signUp, type TestApp } from '../../testing/test-app.ts';
import { until } from '../../testing/until.ts';
import { type FalProtocolServer, startFalProtocolServer } from './testing/fal-protocol-server.ts';
import { PNG } from './testing/fal-replicate-test-media.ts';
import {
  type ReplicateProtocolServer,
  startReplicateProtocolServer,
} from './testing/replicate-protocol-server.ts';

/*
 * Jobs at external providers through the whole server, against the documented stand-ins: a worker submits
 * once and is free; the follower polls (or takes the webhook), downloads, stores and bills; whatever goes
 * wrong, one job at our side is never two at the provider's, and is charged once.
 */

const FAL_KEY = 'fal-remote-jobs-key';
const REPLICATE_TOKEN = 'r8_remote_jobs_token';
let fal: FalProtocolServer;
let replicate: ReplicateProtocolServer;

beforeAll(async () => {
  fal = await startFalProtocolServer(FAL_KEY);
  replicate = await startReplicateProtocolServer(REPLICATE_TOKEN);
  fal.files.set('out.png', { body: PNG, contentType: 'image/png' });
  replicate.files.set('out.png', { body: PNG, contentType: 'image/png' });
});
afterAll(async () => {
  await fal.close();
  await replicate.close();
});

function providerEnv(extra: Record<string, string> = {}) {
  return {
    FAL_KEY,
    FAL_QUEUE_URL: fal.url,
    FAL_STORAGE_URL: fal.url,
    FAL_JWKS_URL: fal.jwksUrl,
    REPLICATE_API_TOKEN: REPLICATE_TOKEN,
    REPLICATE_API_URL: replicate.apiUrl,
    // The stand-ins serve their outputs on loopback.
    ALLOW_PRIVATE_NETWORK: 'true',
    ...extra,
  };
}

async function session(t: TestApp) {
  const client = t.clientFor((await signUp(t)).api_key);
  const balance = async () => (await client.getMe()).balance_cents;
  const job = async (id: string) => Job.parse(await client.getJob({ params: { id } }));
  const settled = async (id: string, timeoutMs = 60_000) => {
    let last: Job | undefined;
    await until(async () => {
      last = await job(id);
      return ['completed', 'failed', 'cancelled'].includes(last.status);
    }, timeoutMs);
    return last!;
  };
  return { client, balance, job, settled };
}

/** fal's requests for one of our jobs: how many the stand-in was asked to create. */
const falRequestsFor = (prompt: string) =>
  [...fal.requests.values()].filter((r) => (r.input as { prompt?: string }).prompt === prompt);

describe('jobs at external providers hold no worker', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(providerEnv());
  });
  afterAll(() => t.close());

  it('more jobs than the remote lane has workers all reach the provider at once, then finish once each', async () => {
    const workers = runRemoteJobQueueJob.workers ?? 1;
    const count = workers * 2 + 4;
    fal.behaviour.neverFinish = true;
    const { client, balance, job, settled } = await session(t);
    const before = await balance();
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const created = await client.createImage({
        body: { model: 'fal:flux-schnell', prompt: `lane ${i}` },
        headers: { 'idempotency-key': `lane-${i}` },
      });
      ids.push(created.id);
    }
    // Every one submitted and running at the provider while none has finished: no worker waits on one.
    await until(async () => {
      const jobs = await Promise.all(ids.map(job));
      return jobs.every((j) => j.status === 'running' && j.provider_job_id !== null);
    }, 60_000);
    const atProvider = ids.map((_, i) => falRequestsFor(`lane ${i}`));
    expect(atProvider.every((requests) => requests.length === 1)).toBe(true);
    expect(t.services.remoteJobs.size).toBe(count);
    // Followed jobs hold no run, yet they are not abandoned: the orphan sweep leaves them alone.
    await t.services.db.query(`UPDATE jobs SET updated_at = now() - interval '1 minute' WHERE id = ANY($1)`, [
      ids,
    ]);
    expect((await requeueOrphans(t.services)).filter((id) => ids.includes(id))).toEqual([]);

    fal.behaviour.neverFinish = false;
    const done = await Promise.all(ids.map((id) => settled(id)));
    expect(done.map((j) => j.status)).toEqual(ids.map(() => 'completed'));
    for (const finished of done) {
      expect(finished.timeline.submitted_at).not.toBeNull();
      expect(finished.timeline.provider_finished_at).not.toBeNull();
      expect(finished.actual_cost_cents).toBe(1);
    }
    expect(await balance()).toBe(before - count);
    expect(t.services.remoteJobs.size).toBe(0);
    expect(ids.map((_, i) => falRequestsFor(`lane ${i}`).length)).toEqual(ids.map(() => 1));
    // The lane's queue is empty: each message ended when its job was submitted.
    const { rows } = await t.services.db.query(
      `SELECT count(*)::int AS n FROM pgboss.job WHERE name = $1 AND state IN ('created', 'active', 'retry')`,
      [RUN_REMOTE_JOB_QUEUE],
    );
    expect(rows[0].n).toBe(0);
  }, 120_000);

  it('a submit whose connection drops after fal took it fails clearly, is not sent again, and costs nothing', async () => {
    const { client, balance, settled } = await session(t);
    const before = await balance();
    fal.behaviour.dropAfterAccept = 1;
    const created = await client.createImage({
      body: { model: 'fal:flux-schnell', prompt: 'dropped at fal' },
    });
    const done = await settled(created.id);
    expect(done.status).toBe('failed');
    expect(done.error?.code).toBe('provider_submit_unknown');
    expect(done.error?.message).toMatch(/not submitted again/);
    expect(falRequestsFor('dropped at fal')).toHaveLength(1);
    expect(await balance()).toBe(before);
  });

  it('a submit whose connection drops after Replicate took it is found there and finishes once, charged once', async () => {
    const { client, balance, settled } = await session(t);
    const before = await balance();
    replicate.behaviour.dropAfterAccept = 1;
    const created = await client.createImage({
      body: { model: 'replicate:flux-schnell', prompt: 'dropped at replicate' },
    });
    const done = await settled(created.id);
    expect(done.status).toBe('completed');
    const predictions = [...replicate.predictions.values()].filter(
      (p) => (p.input as { prompt?: string }).prompt === 'dropped at replicate',
    );
    expect(predictions).toHaveLength(1);
    expect(done.provider_job_id).toBe(predictions[0]!.id);
    expect(await balance()).toBe(before - done.actual_cost_cents!);
    expect(done.actual_cost_cents).toBeGreaterThan(0);
  });

  it('a finished output whose download fails twice is fetched on the third try, not blamed on the person', async () => {
    const { client, settled } = await session(t);
    fal.behaviour.failDownloads = 2;
    const created = await client.createImage({
      body: { model: 'fal:flux-schnell', prompt: 'flaky download' },
    });
    const done = await settled(created.id, 30_000);
    expect(done.status).toBe('completed');
    expect(fal.behaviour.failDownloads).toBe(0);
    expect(falRequestsFor('flaky download')).toHaveLength(1);
  });

  it("a prompt fal's content checker refuses fails as content_policy_violation, uncharged", async () => {
    const { client, balance, settled } = await session(t);
    const before = await balance();
    fal.behaviour.contentPolicy = true;
    try {
      const created = await client.createImage({ body: { model: 'fal:flux-schnell', prompt: 'refused' } });
      const done = await settled(created.id);
      expect(done.status).toBe('failed');
      expect(done.error?.code).toBe('content_policy_violation');
      expect(await balance()).toBe(before);
    } finally {
      fal.behaviour.contentPolicy = false;
    }
  });

  it('cancelling a followed job cancels it at the provider', async () => {
    const { client, job } = await session(t);
    fal.behaviour.neverFinish = true;
    try {
      const created = await client.createImage({ body: { model: 'fal:flux-schnell', prompt: 'to cancel' } });
      await until(async () => (await job(created.id)).provider_job_id !== null);
      await client.cancelJob({ params: { id: created.id } });
      const [request] = falRequestsFor('to cancel');
      await until(() => request!.cancelled);
      await until(() => !t.services.remoteJobs.has(created.id));
    } finally {
      fal.behaviour.neverFinish = false;
    }
  });
});

describe('status checks at Replicate', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(providerEnv());
  });
  afterAll(() => t.close());

  it('checks many running jobs through the prediction list, one GET each only once they are done', async () => {
    const { client, balance, settled } = await session(t);
    const before = await balance();
    replicate.behaviour.pollsBeforeDone = 4;
    replicate.received.length = 0;
    const count = 8;
    try {
      const created = await Promise.all(
        Array.from({ length: count }, (_, i) =>
          client.createImage({ body: { model: 'replicate:flux-schnell', prompt: `listed ${i}` } }),
        ),
      );
      const done = await Promise.all(created.map((job) => settled(job.id)));
      expect(done.map((job) => job.status)).toEqual(Array(count).fill('completed'));
      const ids = new Set(done.map((job) => job.provider_job_id));
      const reads = replicate.received.filter((r) => r.method === 'GET');
      const lists = reads.filter((r) => r.path === '/v1/predictions');
      const gets = reads.filter((r) => ids.has(r.path.split('/').at(-1) ?? ''));
      // One by one, each job would take pollsBeforeDone + 1 = 5 GETs; listed together, a few pages in all.
      expect(lists.length).toBeGreaterThan(0);
      expect(gets.length).toBeLessThanOrEqual(2 * count);
      expect(await balance()).toBe(before - done.reduce((sum, job) => sum + (job.actual_cost_cents ?? 0), 0));
    } finally {
      replicate.behaviour.pollsBeforeDone = 2;
    }
  });
});

describe('the deadline', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(providerEnv({ PROVIDER_JOB_DEADLINE_SECONDS: '2' }));
  });
  afterAll(() => t.close());

  it('fails a job still unfinished at the deadline and cancels it at the provider', async () => {
    const { client, balance, settled } = await session(t);
    const before = await balance();
    fal.behaviour.neverFinish = true;
    try {
      const created = await client.createImage({ body: { model: 'fal:flux-schnell', prompt: 'too slow' } });
      const done = await settled(created.id);
      expect(done.status).toBe('failed');
      expect(done.error?.code).toBe('provider_timeout');
      expect(falRequestsFor('too slow')[0]?.cancelled).toBe(true);
      expect(await balance()).toBe(before);
    } finally {
      fal.behaviour.neverFinish = false;
    }
  });
});

describe('the deadline with the provider unreachable', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(providerEnv({ PROVIDER_JOB_DEADLINE_SECONDS: '2' }));
  });
  afterAll(() => t.close());

  it('still ends the job once, as provider_timeout, its hold returned, when the cancel there fails', async () => {
    const { client, balance, job, settled } = await session(t);
    const before = await balance();
    fal.behaviour.neverFinish = true;
    try {
      const created = await client.createImage({
        body: { model: 'fal:flux-schnell', prompt: 'fal is away' },
      });
      await until(async () => (await job(created.id)).provider_job_id !== null);
      const [request] = falRequestsFor('fal is away');
      // fal goes away after taking the job: status calls and the cancel get no answer.
      fal.behaviour.unreachable = true;
      const done = await settled(created.id);
      expect(done).toMatchObject({ status: 'failed', error: { code: 'provider_timeout' } });
      expect(done.error?.message).toMatch(/could not be reached to cancel it/);
      expect(done.error?.message).toContain(request!.id);
      const cancels = fal.received.filter(
        (r) => r.method === 'PUT' && r.path.endsWith(`/${request!.id}/cancel`),
      );
      expect(cancels).toHaveLength(1);
      expect(request!.cancelled).toBe(false);
      expect(await balance()).toBe(before);
      // Ended once: one terminal move, one release of its hold, nothing written after it.
      const ledger = await t.db.query(
        `SELECT count(*)::int AS n FROM credit_ledger WHERE job_id = $1 AND kind = 'release'`,
        [created.id],
      );
      expect(ledger.rows[0].n).toBe(1);
      expect(t.services.remoteJobs.has(created.id)).toBe(false);
      expect(await job(created.id)).toEqual(done);
    } finally {
      fal.behaviour.unreachable = false;
      fal.behaviour.neverFinish = false;
    }
  });
});

describe("providers' webhooks", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(providerEnv({ PROVIDERS_REACH_PUBLIC_URL: 'true' }));
  });
  afterAll(() => t.close());

  /** Lets the stand-in finish its requests with webhooks now (its own delivery cannot reach media.test). */
  async function finishAtFal(request: { completedAt: number | null }) {
    fal.behaviour.neverFinish = false;
    fal.behaviour.finishAfterMs = 0;
    try {
      await until(() => request.completedAt !== null);
    } finally {
      fal.behaviour.finishAfterMs = null;
    }
  }

  const statusCalls = (requestId: string) =>
    fal.received.filter((r) => r.method === 'GET' && r.path.endsWith(`/requests/${requestId}/status`)).length;

  it('a job is given our callback URL, is not polled, and finishes from a signed delivery', async () => {
    const { client, job, settled } = await session(t);
    fal.behaviour.neverFinish = true;
    const created = await client.createImage({ body: { model: 'fal:flux-schnell', prompt: 'called back' } });
    await until(async () => (await job(created.id)).provider_job_id !== null);
    const [request] = falRequestsFor('called back');
    expect(request!.webhook).toBe(
      `${t.services.config.PUBLIC_URL}/api/provider-webhooks/fal/${encodeURIComponent(created.id)}`,
    );
    await finishAtFal(request!);
    const delivery = fal.webhookFor(request!.id);
    const path = new URL(request!.webhook!).pathname;
    const answer = await t.request(path, {
      method: 'POST',
      headers: delivery.headers,
      body: new Uint8Array(delivery.body),
    });
    expect(answer.status).toBe(204);
    const done = await settled(created.id);
    expect(done.status).toBe('completed');
    expect(statusCalls(request!.id)).toBe(0);
  });

  it('a refresh that finds the job done at the provider finishes it at once, without waiting for a callback', async () => {
    const { client, job, settled } = await session(t);
    fal.behaviour.neverFinish = true;
    const created = await client.createImage({ body: { model: 'fal:flux-schnell', prompt: 'refreshed' } });
    await until(async () => (await job(created.id)).provider_job_id !== null);
    const [request] = falRequestsFor('refreshed');
    await finishAtFal(request!);
    await client.refreshJob({ params: { id: created.id } });
    expect((await settled(created.id)).status).toBe('completed');
    expect(statusCalls(request!.id)).toBe(1);
  });

  it('refuses a delivery with a bad signature, and one meant for another job, and acts on neither', async () => {
    const { client, job } = await session(t);
    fal.behaviour.neverFinish = true;
    try {
      const first = await client.createImage({ body: { model: 'fal:flux-schnell', prompt: 'hook one' } });
      const second = await client.createImage({ body: { model: 'fal:flux-schnell', prompt: 'hook two' } });
      await until(async () => (await job(first.id)).provider_job_id !== null);
      await until(async () => (await job(second.id)).provider_job_id !== null);
      const [one] = falRequestsFor('hook one');
      await finishAtFal(one!);
      const delivery = fal.webhookFor(one!.id);

      const tampered = Buffer.from(delivery.body.toString().replace('"OK"', '"ERROR"'));
      const bad = await t.request(new URL(one!.webhook!).pathname, {
        method: 'POST',
        headers: delivery.headers,
        body: new Uint8Array(tampered),
      });
      expect(bad.status).toBe(401);
      expect(((await bad.json()) as { error: { code: string } }).error.code).toBe('unauthorized');

      const misdirected = await t.request(`/api/provider-webhooks/fal/${second.id}`, {
        method: 'POST',
        headers: delivery.headers,
        body: new Uint8Array(delivery.body),
      });
      expect(misdirected.status).toBe(404);
      expect((await job(first.id)).status).toBe('running');
      expect((await job(second.id)).status).toBe('running');
    } finally {
      fal.behaviour.neverFinish = false;
    }
  });
});
