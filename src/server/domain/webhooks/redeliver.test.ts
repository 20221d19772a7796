import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookEvent } from '../../../contract/webhooks.ts';
import { webhookDeliverySettings } from '../../queue/webhook-delivery.ts';
import { createTestApp, signUp, type TestApp } from '../../testing/test-app.ts';
import { deliverWebhookTry, listJobDeliveries, queueTry } from './deliveries.ts';
import { redeliverJobWebhook } from './redeliver.ts';
import { DEFAULT_WEBHOOK_RETRY_POLICY } from './retry-policy.ts';
import { newWebhookId } from './signature.ts';
import { eventually, insertTestJob } from './webhook-test-support.ts';

let t: TestApp;
let teamId: string;
const workerCalls: Array<{ url: string; webhookId: string }> = [];

beforeAll(async () => {
  t = await createTestApp({ ALLOW_PRIVATE_NETWORK: 'true' });
  // The running worker sends the queued redelivery: let it answer 200 here.
  webhookDeliverySettings.sender = async (url, headers) => {
    workerCalls.push({ url, webhookId: headers['webhook-id']! });
    return { status: 200 };
  };
  const owner = await signUp(t);
  teamId = (await t.clientFor(owner.api_key).getMe()).team.id;
});
afterAll(() => t?.close());

/** A job's delivery whose one allowed try failed (the receiver answered 500). */
async function failedDelivery(url: string) {
  const job = await insertTestJob(t.db, teamId);
  const webhookId = newWebhookId();
  const payload: WebhookEvent = { type: 'job.completed', timestamp: new Date().toISOString(), data: job };
  await t.db.query(
    `INSERT INTO webhook_deliveries (webhook_id, team_id, job_id, event_type, url, payload, status, next_attempt_at)
     VALUES ($1, $2, $3, 'job.completed', $4, $5, 'pending', now())`,
    [webhookId, teamId, job.id, url, JSON.stringify(payload)],
  );
  const outcome = await deliverWebhookTry(
    t.services,
    { webhookId, attempt: 1 },
    { send: async () => ({ status: 500 }), policy: { ...DEFAULT_WEBHOOK_RETRY_POLICY, maxAttempts: 1 } },
  );
  expect(outcome.kind).toBe('failed');
  return { job, webhookId };
}

describe('redeliverJobWebhook', () => {
  it('queues the next try of the same delivery, which the worker sends with the same webhook-id', async () => {
    const url = 'https://hooks.example.com/again';
    const { job, webhookId } = await failedDelivery(url);
    expect(await redeliverJobWebhook(t.services, teamId, job.id)).toEqual({ webhookId, attempt: 2 });
    await eventually(async () => {
      const tries = await listJobDeliveries(t.db, teamId, job.id);
      return tries.some((d) => d.attempt === 2 && d.status === 'succeeded') ? tries : undefined;
    });
    expect(workerCalls).toContainEqual({ url, webhookId });
    const tries = await listJobDeliveries(t.db, teamId, job.id);
    expect(tries.map((d) => [d.attempt, d.status, d.response_status])).toEqual([
      [2, 'succeeded', 200],
      [1, 'failed', 500],
    ]);
  });

  it('sends a delivery again whose queued try already ran and found its URL stopped', async () => {
    const url = 'https://hooks.example.com/stopped-on-the-way';
    const job = await insertTestJob(t.db, teamId);
    const webhookId = newWebhookId();
    const payload: WebhookEvent = { type: 'job.completed', timestamp: new Date().toISOString(), data: job };
    // Another delivery's 410 stopped the URL after this one's first try was queued: that try stops it.
    await t.db.query(
      `INSERT INTO webhook_deliveries (webhook_id, team_id, job_id, event_type, url, payload, status, next_attempt_at)
       VALUES ($1, $2, $3, 'job.completed', $4, $5, 'pending', now())`,
      [webhookId, teamId, job.id, url, JSON.stringify(payload)],
    );
    await t.db.query('INSERT INTO webhook_stopped_urls (team_id, url, webhook_id) VALUES ($1, $2, $3)', [
      teamId,
      url,
      webhookId,
    ]);
    await queueTry(t.services.boss, t.db, webhookId, 1);
    await eventually(async () => {
      const { rows } = await t.db.query('SELECT status FROM webhook_deliveries WHERE webhook_id = $1', [
        webhookId,
      ]);
      return rows[0]?.status === 'stopped' ? true : undefined;
    });

    // Its try 1 ran (and pg-boss keeps that job): the redelivery's try 1 is a queue job of its own.
    expect(await redeliverJobWebhook(t.services, teamId, job.id)).toEqual({ webhookId, attempt: 1 });
    await eventually(async () =>
      workerCalls.some((call) => call.webhookId === webhookId && call.url === url) ? true : undefined,
    );
  });

  it('refuses a second ask while the delivery is in progress (409), and a job without a webhook (404)', async () => {
    const { job } = await failedDelivery('https://hooks.example.com/busy');
    // Hold the worker off: the delivery stays pending while we ask again.
    await t.db.query(`UPDATE webhook_deliveries SET status = 'pending' WHERE job_id = $1`, [job.id]);
    await expect(redeliverJobWebhook(t.services, teamId, job.id)).rejects.toMatchObject({ code: 'conflict' });

    const plain = await insertTestJob(t.db, teamId);
    await expect(redeliverJobWebhook(t.services, teamId, plain.id)).rejects.toMatchObject({
      code: 'not_found',
    });
    const other = (await t.clientFor((await signUp(t)).api_key).getMe()).team.id;
    await expect(redeliverJobWebhook(t.services, other, job.id)).rejects.toMatchObject({ code: 'not_found' });
  });
});
