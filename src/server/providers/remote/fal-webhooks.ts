import { createHash, createPublicKey, type JsonWebKey, type KeyObject, verify } from 'node:crypto';
import { providerJson } from './provider-http.ts';
import { createReplayGuard } from './provider-storage.ts';
import { type WebhookDelivery, WebhookRejected } from './remote-provider.ts';

/*
 * fal's webhook signatures (docs.fal.ai/model-apis/model-endpoints/webhooks, "Verifying Your Webhook"): each
 * delivery carries X-Fal-Webhook-Request-Id, -User-Id, -Timestamp (Unix seconds) and -Signature (hex). The
 * signature is an ED25519 signature of the four lines `request id \n user id \n timestamp \n hex SHA-256 of
 * the raw body`, by one of the keys fal publishes at https://rest.alpha.fal.ai/.well-known/jwks.json; keys
 * may be cached up to 24 hours. A timestamp more than 5 minutes (300 s) from our clock is refused.
 * fal's own verification example takes every key's `x` (base64url, the raw 32-byte Ed25519 public key) and
 * tries each in turn; it does not require `kty`/`crv`. So do we: a key is skipped only when it names
 * another type or its `x` is not a 32-byte key, and one bad key never hides the others. On top of fal's
 * procedure, a signature already accepted is refused again (a replay within the tolerance).
 */

const TOLERANCE_MS = 5 * 60_000;
const KEYS_FRESH_MS = 24 * 60 * 60_000;
/** A signature that no cached key verifies fetches the keys again (a rotation), at most this often. */
const REFETCH_AFTER_MS = 60_000;

interface Jwks {
  keys?: JsonWebKey[];
}

export function createFalWebhookVerifier(config: { jwksUrl: string }) {
  let keys: { list: KeyObject[]; at: number } | null = null;
  const replays = createReplayGuard(TOLERANCE_MS);

  async function fetchKeys(signal?: AbortSignal): Promise<KeyObject[]> {
    const jwks = await providerJson<Jwks>('fal', config.jwksUrl, { signal, timeoutMs: 10_000 });
    const list = (jwks.keys ?? []).flatMap((key) => {
      const x = key?.x;
      if (typeof x !== 'string' || Buffer.from(x, 'base64url').length !== 32) return [];
      if ((key.kty !== undefined && key.kty !== 'OKP') || (key.crv !== undefined && key.crv !== 'Ed25519'))
        return [];
      try {
        return [createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x }, format: 'jwk' })];
      } catch {
        return [];
      }
    });
    keys = { list, at: Date.now() };
    return list;
  }

  return async function verifyFalWebhook(
    delivery: WebhookDelivery,
    signal?: AbortSignal,
  ): Promise<{ providerJobId: string }> {
    const header = (name: string) => delivery.headers.get(`x-fal-webhook-${name}`)?.trim() ?? '';
    const [requestId, userId, timestamp, signature] = ['request-id', 'user-id', 'timestamp', 'signature'].map(
      header,
    );
    if (!requestId || !userId || !timestamp || !signature) {
      throw new WebhookRejected('fal webhook without its signature headers.');
    }
    if (!/^\d{1,12}$/.test(timestamp) || Math.abs(Date.now() - Number(timestamp) * 1000) > TOLERANCE_MS) {
      throw new WebhookRejected('fal webhook timestamp is outside the 5 minutes tolerance.');
    }
    if (!/^([0-9a-f]{2}){64}$/i.test(signature))
      throw new WebhookRejected('fal webhook signature is malformed.');
    const digest = createHash('sha256').update(delivery.body).digest('hex');
    const message = Buffer.from(`${requestId}\n${userId}\n${timestamp}\n${digest}`);
    const bytes = Buffer.from(signature, 'hex');
    const holds = (list: KeyObject[]) => list.some((key) => verify(null, message, key, bytes));

    const cached = keys && Date.now() - keys.at < KEYS_FRESH_MS ? keys : null;
    let valid = cached ? holds(cached.list) : false;
    if (!valid && (!cached || Date.now() - cached.at > REFETCH_AFTER_MS)) {
      valid = holds(await fetchKeys(signal));
    }
    if (!valid) throw new WebhookRejected('fal webhook signature does not verify.');
    if (!replays.accept(signature)) throw new WebhookRejected('fal webhook was already received (a replay).');
    // The body names the same request (it is signed, so this only guards against a mix-up on fal's side).
    try {
      const body = JSON.parse(delivery.body.toString('utf8')) as { request_id?: unknown };
      if (typeof body.request_id === 'string' && body.request_id !== requestId) {
        throw new WebhookRejected('fal webhook body is about another request.');
      }
    } catch (error) {
      if (error instanceof WebhookRejected) throw error;
      throw new WebhookRejected('fal webhook body is not JSON.');
    }
    return { providerJobId: requestId };
  };
}
