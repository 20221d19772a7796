import { createHmac, randomBytes } from 'node:crypto';
import { WEBHOOK_HEADERS } from '../../../contract/webhooks.ts';

const SECRET_PREFIX = 'whsec_';

/** A new team secret: `whsec_` followed by the base64 of 32 random bytes (Standard Webhooks). */
export function generateWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

/** The key material of a `whsec_<base64>` secret: the base64-decoded part after the prefix. */
export function webhookSecretKey(secret: string): Buffer {
  if (!secret.startsWith(SECRET_PREFIX)) throw new Error('webhook secret must start with whsec_');
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  if (key.length === 0) throw new Error('webhook secret has no key material');
  return key;
}

/**
 * The `webhook-signature` header value: `v1,<base64 HMAC-SHA256(key, "<id>.<timestamp>.<body>")>`, with
 * the timestamp in whole seconds, exactly what Standard Webhooks verifiers recompute.
 */
export function signWebhook(
  secret: string,
  webhookId: string,
  timestampSeconds: number,
  body: string,
): string {
  const mac = createHmac('sha256', webhookSecretKey(secret))
    .update(`${webhookId}.${timestampSeconds}.${body}`, 'utf8')
    .digest('base64');
  return `v1,${mac}`;
}

/** A webhook id (`webhook-id` header): `msg_` and 32 hex characters, the same on every try of one event. */
export function newWebhookId(): string {
  return `msg_${randomBytes(16).toString('hex')}`;
}

export const WEBHOOK_USER_AGENT = 'MediaConsole-Webhooks/1';

/**
 * The headers of every webhook request we send (a job's event or a test event), signed now under each of
 * `secrets`: Standard Webhooks puts several signatures in `webhook-signature`, space-separated, and a
 * receiver accepts the request when any one matches its secret (how a rotation's overlap works).
 */
export function signedWebhookHeaders(
  secrets: string | readonly string[],
  webhookId: string,
  body: string,
): Record<string, string> {
  const timestamp = Math.floor(Date.now() / 1000);
  return {
    'content-type': 'application/json',
    'user-agent': WEBHOOK_USER_AGENT,
    [WEBHOOK_HEADERS.id]: webhookId,
    [WEBHOOK_HEADERS.timestamp]: String(timestamp),
    [WEBHOOK_HEADERS.signature]: (typeof secrets === 'string' ? [secrets] : secrets)
      .map((secret) => signWebhook(secret, webhookId, timestamp, body))
      .join(' '),
  };
}
