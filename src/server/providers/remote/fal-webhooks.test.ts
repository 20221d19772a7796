import { createHash, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFalWebhookVerifier } from './fal-webhooks.ts';

/*
 * fal's webhook verification as its documentation does it (docs.fal.ai/model-apis/model-endpoints/webhooks,
 * "Verifying Your Webhook"): the message is request id, user id, timestamp and the body's SHA-256 hex, one
 * per line; the hex signature is checked against each published key's `x`, whatever else the key carries.
 */

const fal = generateKeyPairSync('ed25519');
const other = generateKeyPairSync('ed25519');
const xOf = (key: KeyObject) => key.export({ format: 'jwk' }).x as string;
let jwks: unknown = { keys: [] };
let server: Server;
let jwksUrl: string;

beforeAll(async () => {
  server = createServer((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(jwks));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  jwksUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/.well-known/jwks.json`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

function delivery(
  requestId: string,
  privateKey: KeyObject,
  body = `{"request_id":"${requestId}","status":"OK"}`,
) {
  const timestamp = String(Math.floor(Date.now() / 1000));
  const digest = createHash('sha256').update(body).digest('hex');
  const message = Buffer.from(`${requestId}\nuser-1\n${timestamp}\n${digest}`);
  const signature = sign(null, message, privateKey).toString('hex');
  return {
    headers: new Headers({
      'x-fal-webhook-request-id': requestId,
      'x-fal-webhook-user-id': 'user-1',
      'x-fal-webhook-timestamp': timestamp,
      'x-fal-webhook-signature': signature,
    }),
    body: Buffer.from(body),
  };
}

describe("fal's webhook signatures", () => {
  it("accepts a key published with only its `x`, as fal's example reads the JWKS", async () => {
    jwks = { keys: [{ x: xOf(fal.publicKey) }] };
    const verify = createFalWebhookVerifier({ jwksUrl });
    await expect(verify(delivery('req-bare', fal.privateKey))).resolves.toEqual({
      providerJobId: 'req-bare',
    });
  });

  it('finds the signing key among others, past keys of another type or with a malformed x', async () => {
    jwks = {
      keys: [
        { kty: 'RSA', n: 'AQAB', e: 'AQAB' },
        { kty: 'OKP', crv: 'Ed25519', x: 'not-a-key' },
        { kty: 'OKP', crv: 'Ed25519', x: xOf(other.publicKey), kid: 'old' },
        { kty: 'OKP', crv: 'Ed25519', x: xOf(fal.publicKey), kid: 'current', use: 'sig', alg: 'EdDSA' },
      ],
    };
    const verify = createFalWebhookVerifier({ jwksUrl });
    await expect(verify(delivery('req-many', fal.privateKey))).resolves.toEqual({
      providerJobId: 'req-many',
    });
  });

  it('refuses a signature by a key fal does not publish, and a tampered body', async () => {
    jwks = { keys: [{ kty: 'OKP', crv: 'Ed25519', x: xOf(fal.publicKey) }] };
    const verify = createFalWebhookVerifier({ jwksUrl });
    await expect(verify(delivery('req-forged', other.privateKey))).rejects.toThrow(/does not verify/);
    const good = delivery('req-tampered', fal.privateKey);
    const tampered = { ...good, body: Buffer.from(good.body.toString().replace('OK', 'ERROR')) };
    await expect(verify(tampered)).rejects.toThrow(/does not verify/);
  });
});
