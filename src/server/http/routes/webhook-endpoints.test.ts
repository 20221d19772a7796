import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebhookDelivery } from '../../../contract/jobs.ts';
import { WebhookEndpoint } from '../../../contract/webhook-endpoints.ts';
import { WebhookEvent } from '../../../contract/webhooks.ts';
import type { JobRow } from '../../domain/jobs/job-row.ts';
import { jobWebhookHook } from '../../domain/jobs/job-webhook.ts';
import { enqueueJobWebhook } from '../../domain/webhooks/deliveries.ts';
import { DEFAULT_WEBHOOK_RETRY_POLICY } from '../../domain/webhooks/retry-policy.ts';
import { dispatchTeamEvent } from '../../domain/webhooks/team-events.ts';
import {
  eventually,
  FAST_RETRY_POLICY,
  insertTestJob,
  startReceiver,
} from '../../domain/webhooks/webhook-test-support.ts';
import { webhookDeliverySettings } from '../../queue/webhook-delivery.ts';
import { failure, memberOf, type Person, person } from '../../testing/team-test-support.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';

let t: TestApp;
let owner: Person;
const receivers: Array<{ close(): Promise<void> }> = [];

const fastPolicy = FAST_RETRY_POLICY;

beforeAll(async () => {
  webhookDeliverySettings.retryPolicy = { ...fastPolicy };
  // Receivers listen on loopback (allowed explicitly); one domain is blocked to check the URL policy.
  t = await createTestApp({ ALLOW_PRIVATE_NETWORK: 'true', BLOCKED_DOMAINS: 'blocked.example' });
  owner = await person(t);
});
afterEach(async () => {
  webhookDeliverySettings.retryPolicy = { ...fastPolicy };
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

async function teamSecret(who: Person): Promise<string> {
  return (await who.client.getWebhookSecret()).secret;
}

/** Ends a test job through the real terminal hook (what the job engine calls). */
async function finishJob(teamId: string, status: 'completed' | 'failed' = 'completed') {
  const job = await insertTestJob(t.db, teamId, status);
  const { rows } = await t.db.query<JobRow>('SELECT * FROM jobs WHERE id = $1', [job.id]);
  await jobWebhookHook(t.services)(rows[0]!);
  return job;
}

async function settledDeliveries(filter: string, args: unknown[], count: number) {
  return eventually(async () => {
    const { rows } = await t.db.query(
      `SELECT * FROM webhook_deliveries WHERE ${filter} AND status <> 'pending' ORDER BY created_at`,
      args,
    );
    return rows.length >= count ? rows : undefined;
  });
}

describe('per-try delivery log', () => {
  it("records each try's request and answer, without the secret, and lists them per try", async () => {
    const r = await receiver((n) => (n === 1 ? 500 : 200));
    const job = await insertTestJob(t.db, owner.teamId);
    const queued = await enqueueJobWebhook(t.services, {
      teamId: owner.teamId,
      jobId: job.id,
      url: r.url,
      type: 'job.completed',
      job,
    });
    await settledDeliveries('webhook_id = $1', [queued.webhookId], 1);

    const { data } = await owner.client.listJobWebhookDeliveries({ params: { id: job.id } });
    const tries = data.map((d) => WebhookDelivery.parse(d));
    expect(tries.map((d) => [d.attempt, d.status, d.response_status])).toEqual([
      [2, 'succeeded', 200],
      [1, 'failed', 500],
    ]);
    for (const [i, one] of tries.entries()) {
      // What was sent: the very headers and body the receiver got.
      const heard = r.received[tries.length - 1 - i]!;
      expect(one.endpoint_id).toBeNull();
      expect(one.request).toMatchObject({ url: r.url, body: heard.body, body_truncated: false });
      for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature', 'content-type']) {
        expect(one.request!.headers[name], name).toBe(heard.headers[name]);
      }
      expect(one.response).toMatchObject({ body: 'ok', body_truncated: false });
      expect(one.response!.headers['content-type']).toBe('text/plain');
      expect(one.duration_ms).toBeGreaterThanOrEqual(0);
    }
    expect(tries[1]!.response!.status).toBe(500);

    // The signatures are logged; the secret itself never is.
    const secret = await teamSecret(owner);
    const stored = await t.db.query<{ log: string }>(
      'SELECT row_to_json(a)::text AS log FROM webhook_attempts a WHERE webhook_id = $1',
      [queued.webhookId],
    );
    expect(stored.rows).toHaveLength(2);
    for (const row of stored.rows) {
      expect(row.log).toContain('v1,');
      expect(row.log).not.toContain(secret);
      expect(row.log).not.toContain(secret.slice('whsec_'.length));
    }
  });

  it('records a network failure as an error with no answer', async () => {
    webhookDeliverySettings.retryPolicy = { ...fastPolicy, maxAttempts: 1 };
    const gone = await startReceiver();
    await gone.close();
    const job = await insertTestJob(t.db, owner.teamId);
    const queued = await enqueueJobWebhook(t.services, {
      teamId: owner.teamId,
      jobId: job.id,
      url: gone.url,
      type: 'job.completed',
      job,
    });
    await settledDeliveries('webhook_id = $1', [queued.webhookId], 1);
    const [only] = (await owner.client.listJobWebhookDeliveries({ params: { id: job.id } })).data;
    expect(only).toMatchObject({ status: 'failed', response_status: null, response: null });
    expect(only!.error).toMatch(/connection refused/);
    expect(only!.request!.headers['webhook-id']).toBe(queued.webhookId);
  });
});

describe('team webhook endpoints', () => {
  it('sends each event, signed, to every enabled endpoint subscribed to it, and logs it per endpoint', async () => {
    const team = await person(t);
    const completed = await receiver();
    const failed = await receiver();
    const off = await receiver();
    const a = await team.client.createWebhookEndpoint({
      body: { url: completed.url, description: 'done jobs', events: ['job.completed'] },
    });
    const b = await team.client.createWebhookEndpoint({
      body: { url: failed.url, events: ['job.failed', 'budget.threshold_reached'] },
    });
    const c = await team.client.createWebhookEndpoint({
      body: { url: off.url, events: ['job.completed', 'job.failed'], enabled: false },
    });
    expect(WebhookEndpoint.parse(a)).toMatchObject({
      description: 'done jobs',
      enabled: true,
      failure_streak: 0,
      disabled_reason: null,
    });

    const done = await finishJob(team.teamId, 'completed');
    const broke = await finishJob(team.teamId, 'failed');
    await dispatchTeamEvent(t.services, team.teamId, 'budget.threshold_reached', { threshold_percent: 80 });
    await settledDeliveries('team_id = $1', [team.teamId], 3);

    const verifier = new Webhook(await teamSecret(team));
    expect(completed.received).toHaveLength(1);
    const event = WebhookEvent.parse(
      verifier.verify(completed.received[0]!.body, completed.received[0]!.headers),
    );
    expect(event).toMatchObject({ type: 'job.completed', data: { id: done.id } });
    expect(failed.received).toHaveLength(2);
    const types = failed.received.map(
      (hit) => (verifier.verify(hit.body, hit.headers) as { type: string }).type,
    );
    expect(types.sort()).toEqual(['budget.threshold_reached', 'job.failed']);
    expect(off.received).toHaveLength(0);

    // The job's deliveries include the endpoint's; the endpoint's log lists its own.
    const forJob = await team.client.listJobWebhookDeliveries({ params: { id: broke.id } });
    // The disabled endpoint's is listed as not sent (a missed event it can recover once back on).
    expect(
      forJob.data
        .map((d) => [d.endpoint_id, d.status, d.error])
        .sort((x, y) => String(x[0]).localeCompare(String(y[0]))),
    ).toEqual(
      [
        [b.id, 'succeeded', null],
        [c.id, 'failed', 'not sent: the webhook endpoint was disabled'],
      ].sort((x, y) => String(x[0]).localeCompare(String(y[0]))),
    );
    const log = await team.client.listWebhookEndpointDeliveries({ params: { id: b.id } });
    expect(log.data.map((d) => d.event_type).sort()).toEqual(['budget.threshold_reached', 'job.failed']);
    expect(log.data.every((d) => d.response?.status === 200 && d.request?.url === failed.url)).toBe(true);
    const listed = await team.client.getWebhookEndpoint({ params: { id: b.id } });
    expect(listed).toMatchObject({ last_delivery_status: 'delivered', failure_streak: 0 });
    expect(listed.last_delivery_at).not.toBeNull();

    // Ending the same job again sends nothing more (one delivery per endpoint, job and event).
    const { rows } = await t.db.query<JobRow>('SELECT * FROM jobs WHERE id = $1', [done.id]);
    await jobWebhookHook(t.services)(rows[0]!);
    const again = await t.db.query('SELECT 1 FROM webhook_deliveries WHERE endpoint_id = $1', [a.id]);
    expect(again.rowCount).toBe(1);
  });

  it('disables an endpoint after the run of failures, mails the owners, and is re-enabled', async () => {
    webhookDeliverySettings.retryPolicy = { ...fastPolicy, maxAttempts: 1 };
    webhookDeliverySettings.endpointFailureLimit = 2;
    const team = await person(t);
    const down = await receiver(() => 500);
    const endpoint = await team.client.createWebhookEndpoint({
      body: { url: down.url, events: ['job.completed'] },
    });

    await finishJob(team.teamId);
    await settledDeliveries('endpoint_id = $1', [endpoint.id], 1);
    expect(await team.client.getWebhookEndpoint({ params: { id: endpoint.id } })).toMatchObject({
      enabled: true,
      failure_streak: 1,
      last_delivery_status: 'failed',
    });
    await finishJob(team.teamId);
    await settledDeliveries('endpoint_id = $1', [endpoint.id], 2);

    const disabled = await team.client.getWebhookEndpoint({ params: { id: endpoint.id } });
    expect(disabled).toMatchObject({ enabled: false, failure_streak: 2 });
    expect(disabled.disabled_reason).toMatch(/2 deliveries in a row failed/);
    expect(disabled.disabled_at).not.toBeNull();
    const mail = await eventually(async () => {
      const box = await t.local.devMailbox({ query: { to: team.email } });
      return box.data.find((m) => m.subject.startsWith('Webhook endpoint disabled'));
    });
    expect(mail.subject).toContain(down.url);
    expect(mail.text).toContain('2 deliveries in a row failed');

    // While off, events are not sent to it: they are recorded as missed.
    await finishJob(team.teamId);
    expect(down.received).toHaveLength(2);
    const count = await t.db.query<{ status: string }>(
      'SELECT status FROM webhook_deliveries WHERE endpoint_id = $1 ORDER BY created_at',
      [endpoint.id],
    );
    expect(count.rows.map((row) => row.status)).toEqual(['failed', 'failed', 'stopped']);

    const back = await team.client.updateWebhookEndpoint({
      params: { id: endpoint.id },
      body: { enabled: true },
    });
    expect(back).toMatchObject({
      enabled: true,
      failure_streak: 0,
      disabled_reason: null,
      disabled_at: null,
      missed_events: 1,
    });
    await finishJob(team.teamId);
    await settledDeliveries('endpoint_id = $1', [endpoint.id], 4);
    expect(down.received).toHaveLength(3);
  });

  it('disables an endpoint at once when its receiver answers 410 Gone', async () => {
    const team = await person(t);
    const gone = await receiver(() => 410);
    const endpoint = await team.client.createWebhookEndpoint({
      body: { url: gone.url, events: ['job.completed'] },
    });
    await finishJob(team.teamId);
    const [row] = await settledDeliveries('endpoint_id = $1', [endpoint.id], 1);
    expect(row).toMatchObject({ status: 'stopped', attempts: 1, last_status: 410 });
    const off = await team.client.getWebhookEndpoint({ params: { id: endpoint.id } });
    expect(off).toMatchObject({ enabled: false, failure_streak: 1 });
    expect(off.disabled_reason).toMatch(/410 Gone/);
    // The mail goes out just after the commit that disabled it.
    const mail = await eventually(async () => {
      const box = await t.local.devMailbox({ query: { to: team.email } });
      return box.data.find((m) => m.subject === `Webhook endpoint disabled: ${gone.url}`);
    });
    expect(mail.text).toContain('410 Gone');
    // The job's own URL rule (stopped URLs) is left alone: it is the endpoint that is off.
    const stopped = await t.db.query('SELECT 1 FROM webhook_stopped_urls WHERE url = $1', [gone.url]);
    expect(stopped.rowCount).toBe(0);
  });

  it('lets owners and managers change endpoints and members only read them; other teams see nothing', async () => {
    const team = await person(t);
    const manager = await memberOf(t, team, 'manager');
    const member = await memberOf(t, team, 'member');
    const asTeam = { 'x-team-id': team.teamId };
    const made = await manager.client.createWebhookEndpoint({
      body: { url: 'https://hooks.example.com/in', events: ['job.completed'] },
      headers: asTeam,
    });
    const edited = await manager.client.updateWebhookEndpoint({
      params: { id: made.id },
      body: { description: 'billing system', events: ['job.failed', 'job.failed'] },
      headers: asTeam,
    });
    expect(edited).toMatchObject({ description: 'billing system', events: ['job.failed'] });

    expect((await member.client.listWebhookEndpoints({ headers: asTeam })).data.map((e) => e.id)).toEqual([
      made.id,
    ]);
    expect((await member.client.getWebhookEndpoint({ params: { id: made.id }, headers: asTeam })).id).toBe(
      made.id,
    );
    const refused = await failure(
      member.client.createWebhookEndpoint({
        body: { url: 'https://hooks.example.com/x', events: ['job.completed'] },
        headers: asTeam,
      }),
    );
    expect([refused.status, refused.code]).toEqual([403, 'forbidden']);
    const notEdited = await failure(
      member.client.updateWebhookEndpoint({
        params: { id: made.id },
        body: { enabled: false },
        headers: asTeam,
      }),
    );
    expect(notEdited.status).toBe(403);
    expect(
      (await failure(member.client.deleteWebhookEndpoint({ params: { id: made.id }, headers: asTeam })))
        .status,
    ).toBe(403);

    const stranger = await person(t);
    expect((await stranger.client.listWebhookEndpoints()).data).toEqual([]);
    expect((await failure(stranger.client.getWebhookEndpoint({ params: { id: made.id } }))).status).toBe(404);
    expect((await failure(stranger.client.deleteWebhookEndpoint({ params: { id: made.id } }))).status).toBe(
      404,
    );
    expect(
      (await failure(stranger.client.listWebhookEndpointDeliveries({ params: { id: made.id } }))).status,
    ).toBe(404);

    await team.client.deleteWebhookEndpoint({ params: { id: made.id } });
    expect((await team.client.listWebhookEndpoints()).data).toEqual([]);
  });

  it('checks the URL like a webhook_url and the body like the contract', async () => {
    const team = await person(t);
    const blocked = await failure(
      team.client.createWebhookEndpoint({
        body: { url: 'https://hooks.blocked.example/in', events: ['job.completed'] },
      }),
    );
    expect([blocked.status, blocked.code]).toEqual([403, 'forbidden']);
    const made = await team.client.createWebhookEndpoint({
      body: { url: 'https://hooks.example.com/in', events: ['job.completed'] },
    });
    const movedToBlocked = await failure(
      team.client.updateWebhookEndpoint({
        params: { id: made.id },
        body: { url: 'https://blocked.example/in' },
      }),
    );
    expect(movedToBlocked.status).toBe(403);

    for (const body of [
      { url: 'ftp://hooks.example.com/in', events: ['job.completed'] },
      { url: 'https://hooks.example.com/in', events: [] },
      { url: 'https://hooks.example.com/in', events: ['job.started'] },
    ]) {
      const response = await t.request('/v2/webhook-endpoints', {
        method: 'POST',
        headers: { authorization: `Bearer ${team.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('invalid_request');
    }
  });
});
