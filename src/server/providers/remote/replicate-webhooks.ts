import { createHmac, timingSafeEqual } from 'node:crypto';
import { providerJson } from './provider-http.ts';
import { createReplayGuard } from './provider-storage.ts';
import { type WebhookDelivery, WebhookRejected } from './remote-provider.ts';

/*
 * Replicate's webhook signatures (replicate.com/docs/topics/webhooks/verify-webhook): headers webhook-id,
 * webhook-timestamp (Unix seconds) and webhook-signature (space-separated `v1,<base64>` entries). The signed
 * content is `${webhook-id}.${webhook-timestamp}.${raw body}`, signed with HMAC-SHA256 under the account's
 * signing secret (GET {api}/webhooks/default/secret -> { key: "whsec_<base64>" }; the key is the base64
 * after the prefix). A timestamp more than 5 minutes from our clock is refused, as the page advises against
 * replays (the Standard Webhooks tolerance replicate-javascript's validateWebhook follows).
 */

const TOLERANCE_MS = 5 * 60_000;
const SECRET_FRESH_MS = 60 * 60_000;
const REFETCH_AFTER_MS = 60_000;

export function createReplicateWebhookVerifier(config: { apiUrl: string; token: string | undefined }) {
  const base = config.apiUrl.replace(/\/+$/, '');
  let secret: { key: Buffer; at: number } | null = null;
  const replays = createReplayGuard(TOLERANCE_MS);

  async function fetchSecret(signal?: AbortSignal): Promise<Buffer> {
    const answer = await providerJson<{ key?: unknown }>('Replicate', `${base}/webhooks/default/secret`, {
      headers: { authorization: `Bearer ${config.token}` },
      signal,
      timeoutMs: 10_000,
    });
    if (typeof answer.key !== 'string' || !answer.key) {
      throw new WebhookRejected('Replicate answered no webhook signing secret.');
    }
    const key = Buffer.from(answer.key.split('_').pop() ?? '', 'base64');
    secret = { key, at: Date.now() };
    return key;
  }

  return async function verifyReplicateWebhook(
    delivery: WebhookDelivery,
    signal?: AbortSignal,
  ): Promise<{ providerJobId: string }> {
    const id = delivery.headers.get('webhook-id')?.trim() ?? '';
    const timestamp = delivery.headers.get('webhook-timestamp')?.trim() ?? '';
    const signatures = (delivery.headers.get('webhook-signature') ?? '')
      .split(' ')
      .map((entry) => entry.split(',')[1] ?? '')
      .filter(Boolean);
    if (!id || !timestamp || signatures.length === 0) {
      throw new WebhookRejected('Replicate webhook without its signature headers.');
    }
    if (!/^\d{1,12}$/.test(timestamp) || Math.abs(Date.now() - Number(timestamp) * 1000) > TOLERANCE_MS) {
      throw new WebhookRejected('Replicate webhook timestamp is outside the 5 minutes tolerance.');
    }
    const signed = Buffer.concat([Buffer.from(`${id}.${timestamp}.`), delivery.body]);
    const holds = (key: Buffer) => {
      const expected = createHmac('sha256', key).update(signed).digest();
      return signatures.some((value) => {
        const given = Buffer.from(value, 'base64');
        return given.length === expected.length && timingSafeEqual(given, expected);
      });
    };
    const cached = secret && Date.now() - secret.at < SECRET_FRESH_MS ? secret : null;
    let valid = cached ? holds(cached.key) : false;
    if (!valid && (!cached || Date.now() - cached.at > REFETCH_AFTER_MS)) {
      valid = holds(await fetchSecret(signal));
    }
    if (!valid) throw new WebhookRejected('Replicate webhook signature does not verify.');
    if (!replays.accept(`${id}.${timestamp}`)) {
      throw new WebhookRejected('Replicate webhook was already received (a replay).');
    }
    let prediction: { id?: unknown };
    try {
      prediction = JSON.parse(delivery.body.toString('utf8')) as { id?: unknown };
    } catch {
      throw new WebhookRejected('Replicate webhook body is not JSON.');
    }
    if (typeof prediction.id !== 'string' || !prediction.id) {
      throw new WebhookRejected('Replicate webhook body has no prediction id.');
    }
    return { providerJobId: prediction.id };
  };
}
