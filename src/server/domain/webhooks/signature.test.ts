import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { WebhookSecretValue } from '../../../contract/webhooks.ts';
import { generateWebhookSecret, newWebhookId, signWebhook, webhookSecretKey } from './signature.ts';

describe('webhook signatures (Standard Webhooks)', () => {
  it('makes whsec_ secrets of 32 random bytes in the contract form', () => {
    const a = generateWebhookSecret();
    const b = generateWebhookSecret();
    expect(WebhookSecretValue.safeParse(a).success).toBe(true);
    expect(webhookSecretKey(a)).toHaveLength(32);
    expect(a).not.toBe(b);
  });

  it('signs exactly as the standardwebhooks package does, and its verifier accepts the result', () => {
    const secret = generateWebhookSecret();
    const id = newWebhookId();
    const timestamp = Math.floor(Date.now() / 1000);
    const body = JSON.stringify({
      type: 'job.completed',
      timestamp: new Date().toISOString(),
      data: { id: 'job_1' },
    });
    const signature = signWebhook(secret, id, timestamp, body);
    const webhook = new Webhook(secret);
    expect(signature).toBe(webhook.sign(id, new Date(timestamp * 1000), body));
    const headers = {
      'webhook-id': id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signature,
    };
    expect(webhook.verify(body, headers)).toEqual(JSON.parse(body));
  });

  it('is rejected under another secret, for another body, or for another id', () => {
    const secret = generateWebhookSecret();
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = (id: string, body: string) => ({
      'webhook-id': id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signWebhook(secret, id, timestamp, body),
    });
    expect(() => new Webhook(generateWebhookSecret()).verify('{}', headers('msg_1', '{}'))).toThrow(
      WebhookVerificationError,
    );
    expect(() => new Webhook(secret).verify('{"a":1}', headers('msg_1', '{}'))).toThrow(
      WebhookVerificationError,
    );
    expect(() =>
      new Webhook(secret).verify('{}', { ...headers('msg_1', '{}'), 'webhook-id': 'msg_2' }),
    ).toThrow(WebhookVerificationError);
  });

  it('gives webhook ids the msg_ form', () => {
    expect(newWebhookId()).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(newWebhookId()).not.toBe(newWebhookId());
  });

  it('refuses a secret without the whsec_ prefix or key material', () => {
    expect(() => webhookSecretKey('sk_abc')).toThrow(/whsec_/);
    expect(() => webhookSecretKey('whsec_')).toThrow(/key material/);
  });
});
