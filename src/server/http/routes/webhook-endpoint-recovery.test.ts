import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebhookEndpointRecovery } from '../../../contract/webhook-endpoints.ts';
import { WebhookEvent } from '../../../contract/webhooks.ts';
import { transaction } from '../../db/pool.ts';
import { type JobRow, toJob } from '../../domain/jobs/job-row.ts';
import { jobWebhookHook } from '../../domain/jobs/job-webhook.ts';
import { DEFAULT_WEBHOOK_RETRY_POLICY } from '../../domain/webhooks/retry-policy.ts';
import { dispatchTeamEvent } from '../../domain/webhooks/team-events.ts';
import {
  eventually,
  FAST_RETRY_POLICY,
  insertTestJob,
  type ReceivedWebhook,
  startReceiver,
} from '../../domain/webhooks/webhook-test-support.ts';
import { webhookDeliverySettings } from '../../queue/webhook-delivery.ts';
import { failure, memberOf, type Person, person } from '../../testing/team-test-support.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';

/** Sending a team endpoint's events again (issue #33): one delivery on demand, and the missed events. */

let t: TestApp;
const receivers: Array<{ close(): Promise<void> }> = [];

beforeAll(async () => {
  webhookDeliverySettings.retryPolicy = { ...FAST_RETRY_POLICY };
  t = await createTestApp({ ALLOW_PRIVATE_NETWORK: 'true' });
});
afterEach(async () => {
  webhookDeliverySettings.retryPolicy = { ...FAST_RETRY_POLICY };
  webhookDeliverySettings.endpointFailureLimit = null;
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

/** Ends a test job through the real terminal hook (what the job engine calls). */
async function finishJob(teamId: string, status: 'completed' | 'failed' = 'completed') {
  const job = await insertTestJob(t.db, teamId, status);
  const { rows } = await t.db.query<JobRow>('SELECT * FROM jobs WHERE id = $1', [job.id]);
  await jobWebhookHook(t.services)(rows[0]!);
  return job;
}

async function deliveryOf(endpointId: string, jobId: string) {
  const { rows } = await t.db.query<{ webhook_id: string; status: string; attempts: number }>(
    'SELECT webhook_id, status, attempts FROM webhook_deliveries WHERE endpoint_id = $1 AND job_id = $2',
    [endpointId, jobId],
  );
  return rows[0]!;
}

async function settled(endpointId: string, jobId: string) {
  return eventually(async () => {
    const row = await deliveryOf(endpointId, jobId);
    return row.status === 'pending' ? undefined : row;
  });
}

/**
 * Verifies a received request with the team's secret (the standardwebhooks package) and answers its event
 * (a job's event checked against the contract; a budget alert has its own data).
 */
async function verified(who: Person, hit: ReceivedWebhook) {
  const verifier = new Webhook((await who.client.getWebhookSecret()).secret);
  const event = verifier.verify(hit.body, hit.headers) as { type: string; data: { id?: string } };
  return event.type.startsWith('job.') ? WebhookEvent.parse(event) : event;
}

const hits = (r: { received: ReceivedWebhook[] }, count: number) =>
  eventually(async () => (r.received.length >= count ? r.received : undefined));

describe('POST /v2/webhook-endpoints/{id}/deliveries/{webhook_id}/redeliver', () => {
  it('sends the same webhook-id and payload again, signed afresh, and answers 409 while it is in progress', async () => {
    const team = await person(t);
    // The second request (the redelivery) hangs until the sender gives up: the delivery stays in progress.
    const r = await receiver((n) => (n === 2 ? 'hang' : 200));
    const endpoint = await team.client.createWebhookEndpoint({
      body: { url: r.url, events: ['job.completed'] },
    });
    const job = await finishJob(team.teamId);
    const first = await settled(endpoint.id, job.id);
    expect(first.status).toBe('delivered');

    const queued = await team.client.redeliverWebhookEndpointDelivery({
      params: { id: endpoint.id, webhook_id: first.webhook_id },
    });
    expect(queued).toEqual({ webhook_id: first.webhook_id, attempt: 2 });
    const again = await failure(
      team.client.redeliverWebhookEndpointDelivery({
        params: { id: endpoint.id, webhook_id: first.webhook_id },
      }),
    );
    expect([again.status, again.code]).toEqual([409, 'conflict']);

    // The hung try times out, the retry (try 3) is answered 200.
    const [one, two, three] = await hits(r, 3);
    for (const hit of [one!, two!, three!]) {
      expect(hit.headers['webhook-id']).toBe(first.webhook_id);
      expect(hit.body).toBe(one!.body);
      expect(await verified(team, hit)).toMatchObject({ type: 'job.completed', data: { id: job.id } });
    }
    expect((await settled(endpoint.id, job.id)).status).toBe('delivered');
    const log = await team.client.listWebhookEndpointDeliveries({ params: { id: endpoint.id } });
    expect(log.data.map((d) => [d.attempt, d.status])).toEqual([
      [3, 'succeeded'],
      [2, 'failed'],
      [1, 'succeeded'],
    ]);
  });

  it('sends to the endpoint’s current URL; the log keeps where each earlier try went', async () => {
    webhookDeliverySettings.retryPolicy = { ...FAST_RETRY_POLICY, maxAttempts: 1 };
    const team = await person(t);
    const old = await receiver(() => 500);
    const moved = await receiver();
    const endpoint = await team.client.createWebhookEndpoint({
      body: { url: old.url, events: ['job.failed'] },
    });
    const job = await finishJob(team.teamId, 'failed');
    const first = await settled(endpoint.id, job.id);
    expect(first.status).toBe('failed');

    await team.client.updateWebhookEndpoint({ params: { id: endpoint.id }, body: { url: moved.url } });
    await team.client.redeliverWebhookEndpointDelivery({
      params: { id: endpoint.id, webhook_id: first.webhook_id },
    });
    const [hit] = await hits(moved, 1);
    expect(hit!.headers['webhook-id']).toBe(first.webhook_id);
    expect(await verified(team, hit!)).toMatchObject({ type: 'job.failed', data: { id: job.id } });
    await eventually(async () => ((await settled(endpoint.id, job.id)).attempts === 2 ? true : undefined));
    const log = await team.client.listWebhookEndpointDeliveries({ params: { id: endpoint.id } });
    expect(log.data.map((d) => [d.attempt, d.url, d.request?.url])).toEqual([
      [2, moved.url, moved.url],
      [1, old.url, old.url],
    ]);
  });

  it('is for owners and managers of the team only, and refuses a disabled endpoint', async () => {
    const team = await person(t);
    const manager = await memberOf(t, team, 'manager');
    const member = await memberOf(t, team, 'member');
    const asTeam = { 'x-team-id': team.teamId };
    const r = await receiver();
    const endpoint = await team.client.createWebhookEndpoint({
      body: { url: r.url, events: ['job.completed'] },
    });
    const other = await team.client.createWebhookEndpoint({ body: { url: r.url, events: ['job.failed'] } });
    const job = await finishJob(team.teamId);
    const { webhook_id } = await settled(endpoint.id, job.id);
    const params = { id: endpoint.id, webhook_id };

    const byMember = await failure(
      member.client.redeliverWebhookEndpointDelivery({ params, headers: asTeam }),
    );
    expect([byMember.status, byMember.code]).toEqual([403, 'forbidden']);
    expect(await manager.client.redeliverWebhookEndpointDelivery({ params, headers: asTeam })).toEqual({
      webhook_id,
      attempt: 2,
    });
    await hits(r, 2);

    const stranger = await person(t);
    const notTheirs = await failure(stranger.client.redeliverWebhookEndpointDelivery({ params }));
    expect([notTheirs.status, notTheirs.code]).toEqual([404, 'not_found']);
    const wrongEndpoint = await failure(
      team.client.redeliverWebhookEndpointDelivery({ params: { id: other.id, webhook_id } }),
    );
    expect(wrongEndpoint.status).toBe(404);
    const unknown = await failure(
      team.client.redeliverWebhookEndpointDelivery({
        params: { id: endpoint.id, webhook_id: `msg_${'0'.repeat(32)}` },
      }),
    );
    expect(unknown.status).toBe(404);
    const malformed = await t.request(`/v2/webhook-endpoints/${endpoint.id}/deliveries/nope/redeliver`, {
      method: 'POST',
      headers: { authorization: `Bearer ${team.apiKey}` },
    });
    expect(malformed.status).toBe(422);

    await eventually(async () => ((await settled(endpoint.id, job.id)).attempts === 2 ? true : undefined));
    await team.client.updateWebhookEndpoint({ params: { id: endpoint.id }, body: { enabled: false } });
    const off = await failure(team.client.redeliverWebhookEndpointDelivery({ params }));
    expect([off.status, off.code]).toEqual([409, 'conflict']);
  });
});

describe('POST /v2/webhook-endpoints/{id}/recover', () => {
  it('sends each event missed while the endpoint was off once, signed, when asked after turning it back on', async () => {
    const team = await person(t);
    const r = await receiver();
    const endpoint = await team.client.createWebhookEndpoint({
      body: { url: r.url, events: ['job.completed', 'budget.threshold_reached'] },
    });
    await team.client.updateWebhookEndpoint({ params: { id: endpoint.id }, body: { enabled: false } });

    const a = await finishJob(team.teamId);
    const b = await finishJob(team.teamId);
    await finishJob(team.teamId, 'failed'); // not subscribed: not missed
    await dispatchTeamEvent(t.services, team.teamId, 'budget.threshold_reached', { threshold_percent: 80 });
    expect(r.received).toHaveLength(0);
    const off = await team.client.getWebhookEndpoint({ params: { id: endpoint.id } });
    expect(off.missed_events).toBe(3);

    const whileOff = await failure(
      team.client.recoverWebhookEndpoint({ params: { id: endpoint.id }, body: {} }),
    );
    expect([whileOff.status, whileOff.code]).toEqual([409, 'conflict']);

    const back = await team.client.updateWebhookEndpoint({
      params: { id: endpoint.id },
      body: { enabled: true },
    });
    expect(back.missed_events).toBe(3);
    // Asked twice at once: each missed event is queued by exactly one of them.
    const [one, two] = await Promise.all([
      team.client.recoverWebhookEndpoint({ params: { id: endpoint.id }, body: {} }),
      team.client.recoverWebhookEndpoint({ params: { id: endpoint.id }, body: {} }),
    ]);
    for (const answer of [one, two]) expect(WebhookEndpointRecovery.parse(answer).remaining).toBe(0);
    expect(one.queued + two.queued).toBe(3);

    const received = await hits(r, 3);
    const events = await Promise.all(received.map((hit) => verified(team, hit)));
    expect(events.map((e) => e.type).sort()).toEqual([
      'budget.threshold_reached',
      'job.completed',
      'job.completed',
    ]);
    expect(
      events
        .filter((e) => e.type === 'job.completed')
        .map((e) => e.data.id)
        .sort(),
    ).toEqual([a.id, b.id].sort());
    expect(received[0]!.headers['webhook-id']).toMatch(/^msg_/);
    const { rows } = await t.db.query<{ webhook_id: string }>(
      'SELECT webhook_id FROM webhook_deliveries WHERE endpoint_id = $1',
      [endpoint.id],
    );
    expect(received.map((hit) => hit.headers['webhook-id']).sort()).toEqual(
      rows.map((row) => row.webhook_id).sort(),
    );

    await eventually(async () =>
      (await team.client.getWebhookEndpoint({ params: { id: endpoint.id } })).missed_events === 0 &&
      (
        await t.db.query(
          "SELECT 1 FROM webhook_deliveries WHERE endpoint_id = $1 AND status <> 'delivered'",
          [endpoint.id],
        )
      ).rowCount === 0
        ? true
        : undefined,
    );
    const later = await team.client.recoverWebhookEndpoint({ params: { id: endpoint.id }, body: {} });
    expect([later.queued, later.remaining]).toEqual([0, 0]);
    expect(r.received).toHaveLength(3);
  });

  it('sends a delivery stopped on its way (its try found the endpoint off) once the endpoint is back', async () => {
    const team = await person(t);
    const r = await receiver();
    const endpoint = await team.client.createWebhookEndpoint({
      body: { url: r.url, events: ['job.completed'] },
    });
    const inserted = await insertTestJob(t.db, team.teamId);
    const { rows } = await t.db.query<JobRow>('SELECT * FROM jobs WHERE id = $1', [inserted.id]);
    const job = toJob(rows[0]!, `${t.services.config.PUBLIC_URL}/v2`);
    // The first try is queued, and the endpoint turned off before it runs: the try stops the delivery.
    await transaction(t.db, async (client) => {
      await dispatchTeamEvent({ db: client, boss: t.services.boss }, team.teamId, 'job.completed', job, {
        jobId: job.id,
      });
      await client.query('UPDATE webhook_endpoints SET enabled = false WHERE id = $1', [endpoint.id]);
    });
    const stopped = await settled(endpoint.id, job.id);
    expect(stopped).toMatchObject({ status: 'stopped', attempts: 0 });

    await team.client.updateWebhookEndpoint({ params: { id: endpoint.id }, body: { enabled: true } });
    const recovered = await team.client.recoverWebhookEndpoint({ params: { id: endpoint.id }, body: {} });
    expect(recovered.queued).toBe(1);
    const [hit] = await hits(r, 1);
    expect(hit!.headers['webhook-id']).toBe(stopped.webhook_id);
    expect(await verified(team, hit!)).toMatchObject({ data: { id: job.id } });
    expect((await settled(endpoint.id, job.id)).status).toBe('delivered');
  });

  it('bounds the window, checks roles and teams', async () => {
    const team = await person(t);
    const member = await memberOf(t, team, 'member');
    const r = await receiver();
    const endpoint = await team.client.createWebhookEndpoint({
      body: { url: r.url, events: ['job.completed'], enabled: false },
    });
    await finishJob(team.teamId);
    await team.client.updateWebhookEndpoint({ params: { id: endpoint.id }, body: { enabled: true } });

    const tooOld = await t.request(`/v2/webhook-endpoints/${endpoint.id}/recover`, {
      method: 'POST',
      headers: { authorization: `Bearer ${team.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ since: new Date(Date.now() - 8 * 86_400_000).toISOString() }),
    });
    expect(tooOld.status).toBe(422);
    expect(((await tooOld.json()) as { error: { code: string } }).error.code).toBe('invalid_request');

    const byMember = await failure(
      member.client.recoverWebhookEndpoint({
        params: { id: endpoint.id },
        body: {},
        headers: { 'x-team-id': team.teamId },
      }),
    );
    expect([byMember.status, byMember.code]).toEqual([403, 'forbidden']);
    const stranger = await person(t);
    const notTheirs = await failure(
      stranger.client.recoverWebhookEndpoint({ params: { id: endpoint.id }, body: {} }),
    );
    expect([notTheirs.status, notTheirs.code]).toEqual([404, 'not_found']);

    // An event older than `since` is left out of this window, and still missed.
    const future = await team.client.recoverWebhookEndpoint({
      params: { id: endpoint.id },
      body: { since: new Date(Date.now() + 60_000).toISOString() },
    });
    expect([future.queued, future.remaining]).toEqual([0, 0]);
    expect((await team.client.getWebhookEndpoint({ params: { id: endpoint.id } })).missed_events).toBe(1);
    const all = await team.client.recoverWebhookEndpoint({ params: { id: endpoint.id }, body: {} });
    expect(all.queued).toBe(1);
    await hits(r, 1);
  });
});
