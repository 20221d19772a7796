import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebhookTestEvent, WebhookTestResult } from '../../../contract/webhooks.ts';
import { startReceiver } from '../../domain/webhooks/webhook-test-support.ts';
import { createTestApp, signUp, type TestApp } from '../../testing/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  // The receivers run on 127.0.0.1; blocked.example stands for a domain the operator blocked.
  t = await createTestApp(
    { ALLOW_PRIVATE_NETWORK: 'true', BLOCKED_DOMAINS: 'blocked.example' },
    { work: false },
  );
});
afterAll(() => t?.close());

function post(body: unknown, token?: string) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  return t.request('/v2/webhooks/test', { method: 'POST', headers, body: JSON.stringify(body) });
}

describe('POST /v2/webhooks/test', () => {
  it('sends one webhook.test event that verifies with the standardwebhooks package under the team secret', async () => {
    const receiver = await startReceiver(() => 204);
    try {
      const { api_key } = await signUp(t);
      const client = t.clientFor(api_key);
      const result = WebhookTestResult.parse(
        await client.sendWebhookTestEvent({ body: { url: receiver.url } }),
      );
      expect(result).toMatchObject({ url: receiver.url, delivered: true, response_status: 204, error: null });

      expect(receiver.received).toHaveLength(1);
      const { headers, body } = receiver.received[0]!;
      expect(headers['webhook-id']).toBe(result.webhook_id);
      const { secret } = await client.getWebhookSecret();
      const event = WebhookTestEvent.parse(new Webhook(secret).verify(body, headers));
      expect(event.type).toBe('webhook.test');
      expect(event.data.team_id).toBe((await client.getMe()).team.id);
      // Any other secret refuses it: the signature is the team's.
      const other = await t.clientFor((await signUp(t)).api_key).getWebhookSecret();
      expect(() => new Webhook(other.secret).verify(body, headers)).toThrow();
    } finally {
      await receiver.close();
    }
  });

  it('signs under both secrets during a rotation overlap, and with the new one only without one', async () => {
    const receiver = await startReceiver();
    try {
      const owner = await signUp(t);
      const client = t.clientFor(owner.api_key);
      const original = await client.getWebhookSecret();
      const overlapping = await t.clientFor(owner.access_token).rotateWebhookSecret({ query: {} });
      await client.sendWebhookTestEvent({ body: { url: receiver.url } });
      const during = receiver.received.shift()!;
      for (const secret of [original.secret, overlapping.secret]) {
        expect(WebhookTestEvent.parse(new Webhook(secret).verify(during.body, during.headers)).type).toBe(
          'webhook.test',
        );
      }

      const before = overlapping;
      const rotated = await t.clientFor(owner.access_token).rotateWebhookSecret({
        query: { overlap_seconds: 0 },
      });
      await client.sendWebhookTestEvent({ body: { url: receiver.url } });
      const { headers, body } = receiver.received[0]!;
      expect(WebhookTestEvent.parse(new Webhook(rotated.secret).verify(body, headers)).type).toBe(
        'webhook.test',
      );
      expect(() => new Webhook(before.secret).verify(body, headers)).toThrow();
    } finally {
      await receiver.close();
    }
  });

  it('reports a receiver that does not answer 2xx, and one that cannot be reached, without retrying', async () => {
    const receiver = await startReceiver(() => 500);
    const { api_key } = await signUp(t);
    const client = t.clientFor(api_key);
    const failed = await client.sendWebhookTestEvent({ body: { url: receiver.url } });
    expect(failed).toMatchObject({
      delivered: false,
      response_status: 500,
      error: 'receiver answered HTTP 500',
    });
    expect(receiver.received).toHaveLength(1);
    await receiver.close();

    const unreachable = await client.sendWebhookTestEvent({ body: { url: receiver.url } });
    expect(unreachable.delivered).toBe(false);
    expect(unreachable.response_status).toBeNull();
    expect(unreachable.error).toEqual(expect.any(String));
  });

  it('refuses a blocked host with 403 and a non-http URL with 422, and asks for credentials', async () => {
    const { api_key } = await signUp(t);
    const blocked = await post({ url: 'https://hooks.blocked.example/in' }, api_key);
    expect(blocked.status).toBe(403);
    expect(((await blocked.json()) as { error: { code: string } }).error.code).toBe('forbidden');
    const ftp = await post({ url: 'ftp://example.com/in' }, api_key);
    expect(ftp.status).toBe(422);
    expect((await post({ url: 'https://example.com/in' })).status).toBe(401);
  });
});
