import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebhookDelivery } from '../../contract/jobs.ts';
import { WebhookEvent, WebhookSecret } from '../../contract/webhooks.ts';
import type { JobRow } from '../domain/jobs/job-row.ts';
import { enqueueMissedWebhooks } from '../domain/jobs/job-webhook.ts';
import {
  enqueueJobWebhook,
  listJobDeliveries,
  WEBHOOK_DELIVERY_QUEUE,
} from '../domain/webhooks/deliveries.ts';
import { DEFAULT_WEBHOOK_RETRY_POLICY } from '../domain/webhooks/retry-policy.ts';
import {
  eventually,
  FAST_RETRY_POLICY,
  insertTestJob,
  startReceiver,
} from '../domain/webhooks/webhook-test-support.ts';
import { createTestApp, signUp, type TestApp } from '../testing/test-app.ts';
import { QUEUE_JOBS } from './jobs.ts';
import { webhookDeliverySettings } from './webhook-delivery.ts';

let t: TestApp;
let teamId: string;
let apiKey: string;
const receivers: Array<{ close(): Promise<void> }> = [];

const fastPolicy = FAST_RETRY_POLICY;

beforeAll(async () => {
  webhookDeliverySettings.retryPolicy = { ...fastPolicy };
  // The receivers listen on loopback: allowed explicitly, as a guarded sender will require.
  t = await createTestApp({ ALLOW_PRIVATE_NETWORK: 'true' });
  const session = await signUp(t);
  apiKey = session.api_key;
  teamId = (await t.clientFor(apiKey).getMe()).team.id;
});
afterEach(async () => {
  webhookDeliverySettings.retryPolicy = { ...fastPolicy };
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});
afterAll(async () => {
  webhookDeliverySettings.retryPolicy = { ...DEFAULT_WEBHOOK_RETRY_POLICY };
  await t?.close();
});

async function receiver(answer?: (n: number) => number | 'hang') {
  const r = await startReceiver(answer);
  receivers.push(r);
  return r;
}

async function teamSecret(): Promise<string> {
  return WebhookSecret.parse(await t.clientFor(apiKey).getWebhookSecret()).secret;
}

async function deliveryOf(webhookId: string) {
  const { rows } = await t.db.query('SELECT * FROM webhook_deliveries WHERE webhook_id = $1', [webhookId]);
  return rows[0];
}

/** Waits until the delivery leaves `pending`, and answers its row. */
function settled(webhookId: string) {
  return eventually(async () => {
    const row = await deliveryOf(webhookId);
    return row && row.status !== 'pending' ? row : undefined;
  });
}

async function enqueue(
  url: string,
  type: 'job.completed' | 'job.failed' | 'job.cancelled' = 'job.completed',
) {
  const job = await insertTestJob(t.db, teamId, type === 'job.completed' ? 'completed' : 'failed');
  const queued = await enqueueJobWebhook(t.services, { teamId, jobId: job.id, url, type, job });
  return { job, queued };
}

/**
 * Tries of a delivery still queued or running in pg-boss. A receiver hears only from a try, so once
 * none is left nothing more can arrive: what "nothing more arrives later" waits for, instead of a while.
 */
async function openTries(webhookId: string): Promise<number> {
  const { rows } = await t.db.query(
    `SELECT 1 FROM pgboss.job WHERE name = $1 AND data->>'webhook_id' = $2
        AND state IN ('created', 'retry', 'active')`,
    [WEBHOOK_DELIVERY_QUEUE, webhookId],
  );
  return rows.length;
}

describe('webhook delivery worker', () => {
  it('is registered as a queue job', () => {
    expect(QUEUE_JOBS.map((j) => j.name)).toContain(WEBHOOK_DELIVERY_QUEUE);
  });

  it('delivers a signed event that the standardwebhooks verifier accepts, once however often it is enqueued', async () => {
    const r = await receiver();
    const { job, queued } = await enqueue(r.url);
    const again = await enqueueJobWebhook(t.services, {
      teamId,
      jobId: job.id,
      url: r.url,
      type: 'job.completed',
      job,
    });
    expect(again).toEqual({ webhookId: queued.webhookId, created: false, status: 'pending' });

    expect(await settled(queued.webhookId)).toMatchObject({
      status: 'delivered',
      attempts: 1,
      last_status: 200,
    });
    expect(r.received).toHaveLength(1);
    const [hit] = r.received;
    expect(hit!.headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': 'MediaConsole-Webhooks/1',
      'webhook-id': queued.webhookId,
    });
    const event = WebhookEvent.parse(new Webhook(await teamSecret()).verify(hit!.body, hit!.headers));
    expect(event.type).toBe('job.completed');
    expect(event.data).toEqual(job);
    expect(Math.abs(Date.parse(event.timestamp) - Date.now())).toBeLessThan(60_000);

    const listed = (await listJobDeliveries(t.db, teamId, job.id)).map((d) => WebhookDelivery.parse(d));
    expect(listed).toEqual([
      expect.objectContaining({ attempt: 1, status: 'succeeded', response_status: 200 }),
    ]);
    // Nothing more arrives later: no try of it is left.
    await eventually(async () => ((await openTries(queued.webhookId)) === 0 ? true : undefined));
    expect(r.received).toHaveLength(1);
  });

  it('retries a failing receiver with the same webhook-id and fresh timestamps, recording every try', async () => {
    const r = await receiver((n) => (n <= 2 ? 500 : 200));
    const { job, queued } = await enqueue(r.url, 'job.failed');
    expect(await settled(queued.webhookId)).toMatchObject({
      status: 'delivered',
      attempts: 3,
      last_status: 200,
    });

    expect(r.received).toHaveLength(3);
    expect(r.received.map((h) => h.headers['webhook-id'])).toEqual(Array(3).fill(queued.webhookId));
    const stamps = r.received.map((h) => Number(h.headers['webhook-timestamp']));
    expect(stamps[1]!).toBeGreaterThan(stamps[0]!);
    expect(stamps[2]!).toBeGreaterThan(stamps[1]!);
    const verifier = new Webhook(await teamSecret());
    for (const hit of r.received) {
      expect(WebhookEvent.parse(verifier.verify(hit.body, hit.headers)).type).toBe('job.failed');
    }

    const attempts = await t.db.query(
      `SELECT attempt, response_status, error, duration_ms, finished_at IS NOT NULL AS finished
         FROM webhook_attempts WHERE webhook_id = $1 ORDER BY attempt`,
      [queued.webhookId],
    );
    expect(attempts.rows.map((a) => [a.attempt, a.response_status, a.error, a.finished])).toEqual([
      [1, 500, 'receiver answered HTTP 500', true],
      [2, 500, 'receiver answered HTTP 500', true],
      [3, 200, null, true],
    ]);
    const listed = (await listJobDeliveries(t.db, teamId, job.id)).map((d) => WebhookDelivery.parse(d));
    expect(listed.map((d) => [d.attempt, d.status])).toEqual([
      [3, 'succeeded'],
      [2, 'failed'],
      [1, 'failed'],
    ]);
  });

  it('gives up after the last allowed try and marks the delivery failed', async () => {
    webhookDeliverySettings.retryPolicy = { ...fastPolicy, maxAttempts: 2 };
    const r = await receiver(() => 503);
    const { queued } = await enqueue(r.url);
    expect(await settled(queued.webhookId)).toMatchObject({
      status: 'failed',
      attempts: 2,
      last_status: 503,
      next_attempt_at: null,
    });
    expect(r.received).toHaveLength(2);
  });

  it('stops at a 410: no further try, and later deliveries to that URL are stopped at once', async () => {
    const r = await receiver(() => 410);
    const first = await enqueue(r.url);
    expect(await settled(first.queued.webhookId)).toMatchObject({
      status: 'stopped',
      attempts: 1,
      last_status: 410,
    });
    expect(r.received).toHaveLength(1);

    const second = await enqueue(r.url, 'job.cancelled');
    expect(second.queued).toMatchObject({ created: true, status: 'stopped' });
    const queuedTries = await t.db.query(
      `SELECT 1 FROM pgboss.job WHERE name = $1 AND data->>'webhook_id' = $2`,
      [WEBHOOK_DELIVERY_QUEUE, second.queued.webhookId],
    );
    expect(queuedTries.rows).toEqual([]);
    // And the stopped first delivery tries no more.
    await eventually(async () => ((await openTries(first.queued.webhookId)) === 0 ? true : undefined));
    expect(r.received).toHaveLength(1);

    // Another URL of the same team is unaffected.
    const other = await receiver();
    const third = await enqueue(other.url);
    expect(await settled(third.queued.webhookId)).toMatchObject({ status: 'delivered' });
  });
});

describe('webhooks whose enqueue failed after the job ended', () => {
  /** A finished job with a webhook and no delivery, as a hook that failed after the job's end leaves it. */
  async function finishedWithoutDelivery(url: string, finishedAgo: string) {
    const job = await insertTestJob(t.db, teamId, 'completed');
    await t.db.query(`UPDATE jobs SET webhook_url = $2, completed_at = now() - $3::interval WHERE id = $1`, [
      job.id,
      url,
      finishedAgo,
    ]);
    return job;
  }

  it('are enqueued by the maintenance sweep and delivered, once, and not while the hook may still be under way', async () => {
    const r = await receiver();
    const missed = await finishedWithoutDelivery(r.url, '2 minutes');
    const recent = await finishedWithoutDelivery(r.url, '10 seconds');
    const enqueued = await enqueueMissedWebhooks(t.services);
    expect(enqueued).toContain(missed.id);
    expect(enqueued).not.toContain(recent.id);
    await eventually(async () => (r.received.length >= 1 ? true : undefined));
    expect(JSON.parse(r.received[0]!.body)).toMatchObject({ type: 'job.completed', data: { id: missed.id } });
    expect(await enqueueMissedWebhooks(t.services)).not.toContain(missed.id);
  });

  it("reach the team's endpoints too: each endpoint subscribed when the job ended gets it, once", async () => {
    const r = await receiver();
    const other = await signUp(t);
    const owner = t.clientFor(other.api_key);
    const otherTeam = (await owner.getMe()).team.id;
    const subscribed = await owner.createWebhookEndpoint({ body: { url: r.url, events: ['job.completed'] } });
    const later = await owner.createWebhookEndpoint({ body: { url: r.url, events: ['job.completed'] } });
    // The first endpoint was there an hour before; the second was added after the job ended.
    await t.db.query(`UPDATE webhook_endpoints SET created_at = now() - interval '1 hour' WHERE id = $1`, [
      subscribed.id,
    ]);
    const job = await insertTestJob(t.db, otherTeam, 'completed');
    await t.db.query(`UPDATE jobs SET completed_at = now() - interval '2 minutes' WHERE id = $1`, [job.id]);

    expect(await enqueueMissedWebhooks(t.services)).toContain(job.id);
    await eventually(async () => (r.received.length >= 1 ? true : undefined));
    const { rows } = await t.db.query<{ endpoint_id: string }>(
      'SELECT endpoint_id FROM webhook_deliveries WHERE job_id = $1',
      [job.id],
    );
    expect(rows.map((row) => row.endpoint_id)).toEqual([subscribed.id]);
    expect(JSON.parse(r.received[0]!.body)).toMatchObject({ type: 'job.completed', data: { id: job.id } });
    expect(await enqueueMissedWebhooks(t.services)).not.toContain(job.id);
    expect(later.id).not.toBe(subscribed.id);
  });

  it('do not fail the end of the job: the terminal hook logs and returns when the enqueue fails', async () => {
    const r = await receiver();
    const job = await finishedWithoutDelivery(r.url, '0 seconds');
    const { rows } = await t.db.query<JobRow>('SELECT * FROM jobs WHERE id = $1', [job.id]);
    // The team is gone from under the delivery row (its foreign key): the enqueue throws.
    const row = { ...rows[0]!, team_id: '00000000-0000-4000-8000-000000000000' };
    await expect(t.services.onJobTerminal(row)).resolves.toBeUndefined();
    const { rowCount } = await t.db.query('SELECT 1 FROM webhook_deliveries WHERE job_id = $1', [job.id]);
    expect(rowCount).toBe(0);
  });
});
