import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebhookDelivery } from '../../../contract/jobs.ts';
import { WebhookEvent } from '../../../contract/webhooks.ts';
import { transaction } from '../../db/pool.ts';
import { webhookDeliverySettings } from '../../queue/webhook-delivery.ts';
import { createTestApp, signUp, type TestApp } from '../../testing/test-app.ts';
import {
  type DeliverySettings,
  deliverWebhookTry,
  deliveryQueueJobId,
  enqueueJobWebhook,
  listJobDeliveries,
  WEBHOOK_DELIVERY_QUEUE,
  type WebhookEventType,
} from './deliveries.ts';
import { DEFAULT_WEBHOOK_RETRY_POLICY, type WebhookRetryPolicy } from './retry-policy.ts';
import { getOrCreateWebhookSecret, rotateTeamWebhookSecret } from './secrets.ts';
import { createWebhookSender, type WebhookSender } from './sender.ts';
import { newWebhookId } from './signature.ts';
import { insertTestJob, startReceiver } from './webhook-test-support.ts';

let t: TestApp;
let teamA: string;
let teamB: string;
const workerCalls: string[] = [];

beforeAll(async () => {
  t = await createTestApp({ ALLOW_PRIVATE_NETWORK: 'true' });
  // Deliveries queued by enqueueJobWebhook are picked up by the running worker: let it answer 200 here.
  webhookDeliverySettings.sender = async (url) => {
    workerCalls.push(url);
    return { status: 200 };
  };
  const a = await signUp(t);
  const b = await signUp(t);
  teamA = (await t.clientFor(a.api_key).getMe()).team.id;
  teamB = (await t.clientFor(b.api_key).getMe()).team.id;
});
afterAll(async () => {
  webhookDeliverySettings.sender = null;
  await t?.close();
});

/** Retries an hour away (jitter pinned to the top), so the running worker never reaches them here. */
const slowPolicy: WebhookRetryPolicy = {
  ...DEFAULT_WEBHOOK_RETRY_POLICY,
  baseDelayMs: 3_600_000,
  maxAttempts: 3,
  timeoutMs: 300,
  random: () => 1,
};

function recordingSender(status: number) {
  const calls: Array<{ url: string; headers: Record<string, string>; body: string; timeoutMs: number }> = [];
  const send: WebhookSender = async (url, headers, body, timeoutMs) => {
    calls.push({ url, headers, body, timeoutMs });
    return { status };
  };
  return { calls, send };
}

/** A delivery row as enqueueJobWebhook writes it, but with no queued try (this file drives tries itself). */
async function insertDelivery(teamId: string, url: string, type: WebhookEventType = 'job.completed') {
  const job = await insertTestJob(t.db, teamId, type === 'job.failed' ? 'failed' : 'completed');
  const webhookId = newWebhookId();
  const payload: WebhookEvent = { type, timestamp: new Date().toISOString(), data: job };
  await t.db.query(
    `INSERT INTO webhook_deliveries (webhook_id, team_id, job_id, event_type, url, payload, status, next_attempt_at)
     VALUES ($1, $2, $3, $4, $5, $6, 'pending', now())`,
    [webhookId, teamId, job.id, type, url, JSON.stringify(payload)],
  );
  return { webhookId, job };
}

async function deliveryRow(webhookId: string) {
  const { rows } = await t.db.query('SELECT * FROM webhook_deliveries WHERE webhook_id = $1', [webhookId]);
  return rows[0];
}

async function queuedTries(webhookId: string) {
  const { rows } = await t.db.query<{ id: string; data: { attempt: number }; start_after: Date }>(
    `SELECT id, data, start_after FROM pgboss.job WHERE name = $1 AND data->>'webhook_id' = $2 ORDER BY created_on`,
    [WEBHOOK_DELIVERY_QUEUE, webhookId],
  );
  return rows;
}

const settings = (send: WebhookSender, policy = slowPolicy): DeliverySettings => ({ send, policy });

describe('team webhook secrets', () => {
  it('is made on first use, then stays the same until rotated', async () => {
    const first = await getOrCreateWebhookSecret(t.db, t.services.keys.encryption, teamB);
    const again = await getOrCreateWebhookSecret(t.db, t.services.keys.encryption, teamB);
    expect(again).toEqual(first);
    const rotated = await rotateTeamWebhookSecret(t.db, t.services.keys.encryption, teamB);
    expect(rotated.secret).not.toBe(first.secret);
    expect((await getOrCreateWebhookSecret(t.db, t.services.keys.encryption, teamB)).secret).toBe(
      rotated.secret,
    );
  });

  it('is stored sealed, never in the clear', async () => {
    const { secret } = await getOrCreateWebhookSecret(t.db, t.services.keys.encryption, teamB);
    const { rows } = await t.db.query('SELECT * FROM webhook_secrets WHERE team_id = $1', [teamB]);
    const stored = rows[0].secret_sealed as Buffer;
    expect(stored.toString('latin1')).not.toContain(secret);
    expect(stored.toString('latin1')).not.toContain(secret.slice(6));
  });
});

describe('rotating with an overlap', () => {
  /** One real delivery try of a new job's event for `teamId`, as the receiver saw it. */
  async function deliverOne(teamId: string) {
    const { webhookId } = await insertDelivery(teamId, 'https://hooks.example.com/rotation');
    const { calls, send } = recordingSender(204);
    await deliverWebhookTry(t.services, { webhookId, attempt: 1 }, settings(send));
    return calls[0]!;
  }
  const verifies = (secret: string, call: { body: string; headers: Record<string, string> }) => {
    try {
      WebhookEvent.parse(new Webhook(secret).verify(call.body, call.headers));
      return true;
    } catch {
      return false;
    }
  };

  it('signs deliveries under both secrets until the overlap ends, then under the new one only', async () => {
    const key = t.services.keys.encryption;
    const old = await getOrCreateWebhookSecret(t.db, key, teamB);
    const rotated = await rotateTeamWebhookSecret(t.db, key, teamB, 3600);
    expect(rotated.previousExpiresAt!.getTime()).toBeGreaterThan(rotated.createdAt.getTime());

    const during = await deliverOne(teamB);
    expect(during.headers['webhook-signature']).toMatch(/^v1,\S+ v1,\S+$/);
    expect(verifies(rotated.secret, during)).toBe(true);
    expect(verifies(old.secret, during)).toBe(true);

    // The overlap ends: move its end into the past instead of waiting for it.
    await t.db.query(
      `UPDATE webhook_secrets SET previous_expires_at = now() - interval '1 second' WHERE team_id = $1`,
      [teamB],
    );
    const after = await deliverOne(teamB);
    expect(after.headers['webhook-signature']).toMatch(/^v1,\S+$/);
    expect(verifies(rotated.secret, after)).toBe(true);
    expect(verifies(old.secret, after)).toBe(false);
  });

  it('ends the old secret at once without an overlap, and keeps only the replaced one when rotated twice', async () => {
    const key = t.services.keys.encryption;
    const first = await rotateTeamWebhookSecret(t.db, key, teamB, 3600);
    const second = await rotateTeamWebhookSecret(t.db, key, teamB, 3600);
    const overlapping = await deliverOne(teamB);
    expect([first.secret, second.secret].map((s) => verifies(s, overlapping))).toEqual([true, true]);

    const third = await rotateTeamWebhookSecret(t.db, key, teamB, 0);
    expect(third.previousExpiresAt).toBeNull();
    const alone = await deliverOne(teamB);
    expect([first.secret, second.secret, third.secret].map((s) => verifies(s, alone))).toEqual([
      false,
      false,
      true,
    ]);
  });
});

describe('enqueueJobWebhook', () => {
  it('creates one delivery and one queued try per job and event, however often it is called', async () => {
    const job = await insertTestJob(t.db, teamA);
    const input = {
      teamId: teamA,
      jobId: job.id,
      url: 'https://hooks.example.com/a',
      type: 'job.completed' as const,
      job,
    };
    const first = await enqueueJobWebhook(t.services, input);
    const second = await enqueueJobWebhook(t.services, input);
    expect(first).toMatchObject({ created: true, status: 'pending' });
    expect(first.webhookId).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(second).toEqual({ webhookId: first.webhookId, created: false, status: 'pending' });
    const { rows } = await t.db.query('SELECT webhook_id FROM webhook_deliveries WHERE job_id = $1', [
      job.id,
    ]);
    expect(rows).toEqual([{ webhook_id: first.webhookId }]);
    const tries = await queuedTries(first.webhookId);
    expect(tries).toHaveLength(1);
    expect(tries[0]).toMatchObject({ id: deliveryQueueJobId(first.webhookId, 1), data: { attempt: 1 } });

    // Another event of the same job is another delivery.
    const other = await enqueueJobWebhook(t.services, { ...input, type: 'job.failed' });
    expect(other.created).toBe(true);
    expect(other.webhookId).not.toBe(first.webhookId);
  });

  it('commits with the caller’s transaction, or not at all', async () => {
    const job = await insertTestJob(t.db, teamA);
    await expect(
      transaction(t.db, async (client) => {
        await enqueueJobWebhook(t.services, {
          teamId: teamA,
          jobId: job.id,
          url: 'https://hooks.example.com/rolled-back',
          type: 'job.completed',
          job,
          client,
        });
        throw new Error('the job engine changed its mind');
      }),
    ).rejects.toThrow('changed its mind');
    const { rows } = await t.db.query('SELECT 1 FROM webhook_deliveries WHERE job_id = $1', [job.id]);
    expect(rows).toEqual([]);
    const orphans = await t.db.query(
      `SELECT 1 FROM pgboss.job j WHERE j.name = $1
          AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.webhook_id = j.data->>'webhook_id')`,
      [WEBHOOK_DELIVERY_QUEUE],
    );
    expect(orphans.rows).toEqual([]);
  });
});

describe('deliverWebhookTry', () => {
  it('POSTs the signed event with the Standard Webhooks headers and records the delivery', async () => {
    const { webhookId, job } = await insertDelivery(teamA, 'https://hooks.example.com/ok');
    const { calls, send } = recordingSender(204);
    const before = Math.floor(Date.now() / 1000);
    expect(await deliverWebhookTry(t.services, { webhookId, attempt: 1 }, settings(send))).toEqual({
      kind: 'delivered',
      status: 204,
    });
    expect(calls).toHaveLength(1);
    const call = calls[0]!;
    expect(call.url).toBe('https://hooks.example.com/ok');
    expect(call.timeoutMs).toBe(300);
    expect(call.headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': 'MediaConsole-Webhooks/1',
      'webhook-id': webhookId,
    });
    expect(Number(call.headers['webhook-timestamp'])).toBeGreaterThanOrEqual(before);
    expect(call.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    const { secret } = await getOrCreateWebhookSecret(t.db, t.services.keys.encryption, teamA);
    const event = WebhookEvent.parse(new Webhook(secret).verify(call.body, call.headers));
    expect(event).toMatchObject({ type: 'job.completed', data: job });
    // The body keeps the contract's key order.
    expect(Object.keys(JSON.parse(call.body))).toEqual(['type', 'timestamp', 'data']);

    expect(await deliveryRow(webhookId)).toMatchObject({
      status: 'delivered',
      attempts: 1,
      last_status: 204,
      last_error: null,
      next_attempt_at: null,
    });
    const listed = await listJobDeliveries(t.db, teamA, job.id);
    expect(listed.map((d) => WebhookDelivery.parse(d))).toEqual([
      expect.objectContaining({
        id: `${webhookId}.1`,
        webhook_id: webhookId,
        job_id: job.id,
        event_type: 'job.completed',
        attempt: 1,
        status: 'succeeded',
        response_status: 204,
        error: null,
        next_attempt_at: null,
      }),
    ]);
    expect(listed[0]!.duration_ms).toBeGreaterThanOrEqual(0);

    // A repeated or late try changes nothing.
    expect(await deliverWebhookTry(t.services, { webhookId, attempt: 1 }, settings(send))).toEqual({
      kind: 'skipped',
      reason: 'not_due',
    });
    expect(
      await deliverWebhookTry(t.services, { webhookId: 'msg_none', attempt: 1 }, settings(send)),
    ).toEqual({
      kind: 'skipped',
      reason: 'unknown_delivery',
    });
    expect(calls).toHaveLength(1);
  });

  it('retries a timeout after a backoff, keeping the attempt and the scheduled retry', async () => {
    const receiver = await startReceiver(() => 'hang');
    try {
      const { webhookId, job } = await insertDelivery(teamA, receiver.url);
      const outcome = await deliverWebhookTry(
        t.services,
        { webhookId, attempt: 1 },
        settings(createWebhookSender(t.config)),
      );
      expect(outcome).toMatchObject({
        kind: 'retry',
        status: null,
        error: expect.stringContaining('no complete answer within 0.3 s'),
      });
      expect(receiver.received).toHaveLength(1);
      const row = await deliveryRow(webhookId);
      expect(row).toMatchObject({ status: 'pending', attempts: 1, last_status: null });
      const due = (row.next_attempt_at as Date).getTime() - Date.now();
      expect(due).toBeGreaterThan(3_500_000);
      expect(due).toBeLessThanOrEqual(3_600_000);
      const tries = await queuedTries(webhookId);
      expect(tries.map((q) => q.data.attempt)).toEqual([2]);
      expect(tries[0]!.id).toBe(deliveryQueueJobId(webhookId, 2));
      expect(tries[0]!.start_after.getTime()).toBe((row.next_attempt_at as Date).getTime());

      const [listed] = await listJobDeliveries(t.db, teamA, job.id);
      expect(WebhookDelivery.parse(listed)).toMatchObject({
        attempt: 1,
        status: 'failed',
        response_status: null,
        error: expect.stringContaining('no complete answer within 0.3 s'),
        next_attempt_at: (row.next_attempt_at as Date).toISOString(),
      });
      expect(listed!.duration_ms).toBeGreaterThanOrEqual(250);
    } finally {
      await receiver.close();
    }
  });

  it('records a refused connection and fails the delivery after the last allowed try', async () => {
    const receiver = await startReceiver();
    const url = receiver.url;
    await receiver.close(); // nothing listens there any more
    const { webhookId, job } = await insertDelivery(teamA, url, 'job.failed');
    await t.db.query('UPDATE webhook_deliveries SET attempts = 2 WHERE webhook_id = $1', [webhookId]);
    const outcome = await deliverWebhookTry(
      t.services,
      { webhookId, attempt: 3 },
      settings(createWebhookSender(t.config)),
    );
    expect(outcome).toMatchObject({ kind: 'failed', status: null });
    expect(outcome.kind === 'failed' && outcome.error).toMatch(/connection refused/);
    expect(await deliveryRow(webhookId)).toMatchObject({
      status: 'failed',
      attempts: 3,
      next_attempt_at: null,
    });
    expect(await queuedTries(webhookId)).toEqual([]);
    const [listed] = await listJobDeliveries(t.db, teamA, job.id);
    expect(listed).toMatchObject({ attempt: 3, status: 'failed', next_attempt_at: null });
  });

  it('counts a non-2xx answer (a redirect too) as a failed try', async () => {
    const { webhookId } = await insertDelivery(teamA, 'https://hooks.example.com/moved');
    const outcome = await deliverWebhookTry(
      t.services,
      { webhookId, attempt: 1 },
      settings(recordingSender(302).send),
    );
    expect(outcome).toMatchObject({ kind: 'retry', status: 302, error: 'receiver answered HTTP 302' });
    expect(await deliveryRow(webhookId)).toMatchObject({ status: 'pending', attempts: 1, last_status: 302 });
  });

  it('stops at a 410: the URL is stopped for the team, its pending deliveries too, later ones are never sent', async () => {
    const url = 'https://hooks.example.com/gone';
    const gone = await insertDelivery(teamA, url);
    const waiting = await insertDelivery(teamA, url);
    const elsewhere = await insertDelivery(teamB, url);
    const outcome = await deliverWebhookTry(
      t.services,
      { webhookId: gone.webhookId, attempt: 1 },
      settings(recordingSender(410).send),
    );
    expect(outcome).toEqual({ kind: 'stopped', status: 410 });
    expect(await deliveryRow(gone.webhookId)).toMatchObject({
      status: 'stopped',
      attempts: 1,
      last_status: 410,
    });
    expect(await deliveryRow(waiting.webhookId)).toMatchObject({ status: 'stopped', attempts: 0 });
    expect(await deliveryRow(elsewhere.webhookId)).toMatchObject({ status: 'pending' });
    const stopped = await t.db.query('SELECT team_id, webhook_id FROM webhook_stopped_urls WHERE url = $1', [
      url,
    ]);
    expect(stopped.rows).toEqual([{ team_id: teamA, webhook_id: gone.webhookId }]);
    expect(await queuedTries(gone.webhookId)).toEqual([]);

    const [goneListed] = await listJobDeliveries(t.db, teamA, gone.job.id);
    expect(goneListed).toMatchObject({
      status: 'failed',
      response_status: 410,
      error: expect.stringMatching(/410 Gone/),
    });
    const [waitingListed] = await listJobDeliveries(t.db, teamA, waiting.job.id);
    expect(WebhookDelivery.parse(waitingListed)).toMatchObject({
      attempt: 1,
      status: 'failed',
      response_status: null,
      error: expect.stringMatching(/^not sent/),
    });

    // A new event for the stopped URL is recorded as stopped and never queued.
    const job = await insertTestJob(t.db, teamA);
    const later = await enqueueJobWebhook(t.services, {
      teamId: teamA,
      jobId: job.id,
      url,
      type: 'job.completed',
      job,
    });
    expect(later).toMatchObject({ created: true, status: 'stopped' });
    expect(await queuedTries(later.webhookId)).toEqual([]);
    // A try already queued for a now-stopped URL is not made.
    const { calls, send } = recordingSender(200);
    await t.db.query(`UPDATE webhook_deliveries SET status = 'pending' WHERE webhook_id = $1`, [
      waiting.webhookId,
    ]);
    expect(
      await deliverWebhookTry(t.services, { webhookId: waiting.webhookId, attempt: 1 }, settings(send)),
    ).toEqual({
      kind: 'stopped',
      status: null,
    });
    expect(calls).toEqual([]);
  });
});

describe('listJobDeliveries', () => {
  it('shows a queued first try as pending, and nothing of another team’s job', async () => {
    const { webhookId, job } = await insertDelivery(teamA, 'https://hooks.example.com/later');
    const listed = await listJobDeliveries(t.db, teamA, job.id);
    expect(listed.map((d) => WebhookDelivery.parse(d))).toEqual([
      expect.objectContaining({ id: `${webhookId}.1`, attempt: 1, status: 'pending', duration_ms: null }),
    ]);
    expect(listed[0]!.next_attempt_at).not.toBeNull();
    expect(await listJobDeliveries(t.db, teamB, job.id)).toEqual([]);
    expect(await listJobDeliveries(t.db, teamA, 'job_unknown')).toEqual([]);
  });

  it('lists every try newest first', async () => {
    const { webhookId, job } = await insertDelivery(teamA, 'https://hooks.example.com/flaky');
    await deliverWebhookTry(t.services, { webhookId, attempt: 1 }, settings(recordingSender(500).send));
    await deliverWebhookTry(t.services, { webhookId, attempt: 2 }, settings(recordingSender(503).send));
    await deliverWebhookTry(t.services, { webhookId, attempt: 3 }, settings(recordingSender(200).send));
    const listed = (await listJobDeliveries(t.db, teamA, job.id)).map((d) => WebhookDelivery.parse(d));
    expect(listed.map((d) => [d.attempt, d.status, d.response_status, d.next_attempt_at])).toEqual([
      [3, 'succeeded', 200, null],
      [2, 'failed', 503, null],
      [1, 'failed', 500, null],
    ]);
    expect(workerCalls).not.toContain('https://hooks.example.com/flaky');
  });
});
