import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ErrorEnvelope } from '../../contract/errors.ts';
import { generateApiKey } from '../domain/identity/api-key-format.ts';
import { ApiKeyResolver, createApiKey } from '../domain/identity/api-keys.ts';
import { createTestApp, signUp, type TestApp } from '../testing/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function expect401(headers: Record<string, string>, path = '/v2/me') {
  const response = await t.request(path, { headers });
  expect(response.status).toBe(401);
  expect(response.headers.get('www-authenticate')).toContain('Bearer');
  const body = ErrorEnvelope.parse(await response.json());
  expect(body.error.code).toBe('unauthorized');
  return body.error.message;
}

describe('authentication', () => {
  it('refuses a missing, empty or non-Bearer Authorization header', async () => {
    expect(await expect401({})).toMatch(/Authorization/);
    await expect401({ authorization: '' });
    await expect401({ authorization: 'Bearer' });
    await expect401({ authorization: 'Basic dXNlcjpwYXNz' });
  });

  it('refuses a well-formed key that does not exist, and one with a broken checksum', async () => {
    await expect401({ authorization: `Bearer ${generateApiKey()}` });
    const { api_key } = await signUp(t);
    const typo = `${api_key.slice(0, 10)}${api_key[10] === 'a' ? 'b' : 'a'}${api_key.slice(11)}`;
    await expect401({ authorization: `Bearer ${typo}` });
  });

  it('refuses a revoked key at once', async () => {
    const { api_key, access_token } = await signUp(t);
    const me = await t.clientFor(access_token).getMe();
    const key = await createApiKey(t.db, t.services.keys.encryption, {
      teamId: me.team.id,
      personId: me.person!.id,
      name: 'to revoke',
      revealable: false,
    });
    await expect(t.clientFor(key.secret).getMe()).resolves.toBeTruthy();
    await t.db.query('UPDATE api_keys SET revoked_at = now() WHERE id = $1', [key.id]);
    t.services.apiKeys.forget(key.id);
    await expect401({ authorization: `Bearer ${key.secret}` });
    await expect(t.clientFor(api_key).getMe()).resolves.toBeTruthy();
  });

  it('refuses a key revoked through the API on the very next request, and keeps the others working', async () => {
    const { api_key, access_token } = await signUp(t);
    const owner = t.clientFor(access_token);
    const created = await owner.createApiKey({ body: { name: 'short-lived', revealable: false } });
    const key = t.clientFor(created.api_key);
    // Twice, so the second answer comes from the lookup cache that the revocation must clear.
    await key.getMe();
    await expect(key.getMe()).resolves.toBeTruthy();
    await owner.revokeApiKey({ params: { id: created.key.id } });
    await expect401({ authorization: `Bearer ${created.api_key}` });
    await expect(t.clientFor(api_key).getMe()).resolves.toBeTruthy();
  });

  it('makes another process that listens drop a revoked key when the revocation commits', async () => {
    const { access_token } = await signUp(t);
    const owner = t.clientFor(access_token);
    const created = await owner.createApiKey({ body: { name: 'seen elsewhere', revealable: false } });
    // Another API process on the same database, with the key in its cache.
    const other = new ApiKeyResolver(t.db);
    const stop = await other.listen(t.config.DATABASE_URL!);
    try {
      expect((await other.resolve(created.api_key))?.apiKeyId).toBe(created.key.id);
      const forgotten = vi.spyOn(other, 'forget');
      await owner.revokeApiKey({ params: { id: created.key.id } });
      // No request reaches the other process meanwhile, so only the notification can evict the key.
      await vi.waitFor(() => expect(forgotten).toHaveBeenCalledWith(created.key.id), { timeout: 5_000 });
      expect(await other.resolve(created.api_key)).toBeNull();
    } finally {
      await stop();
    }
  });

  it('refuses a JWT signed with another key, an expired one, and garbage', async () => {
    const { access_token } = await signUp(t);
    const [, payload] = access_token.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    const forged = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode('another-secret-another-secret-another'));
    await expect401({ authorization: `Bearer ${forged}` });
    const expired = await new SignJWT({ ...claims, exp: Math.floor(Date.now() / 1000) - 10 })
      .setProtectedHeader({ alg: 'HS256' })
      .sign(t.services.keys.sessionSigning);
    await expect401({ authorization: `Bearer ${expired}` });
    const unsigned = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${payload}.`;
    await expect401({ authorization: `Bearer ${unsigned}` });
    await expect401({ authorization: 'Bearer a.b.c' });
  });

  it('refuses an API key where only an app session is accepted (spec 5.3)', async () => {
    const { api_key } = await signUp(t);
    const response = await t.request('/api/auth/sign-out', {
      method: 'POST',
      headers: { authorization: `Bearer ${api_key}` },
    });
    expect(response.status).toBe(401);
    expect(ErrorEnvelope.parse(await response.json()).error.message).toMatch(/session/);
  });

  it("answers another team's id in X-Team-Id as not found", async () => {
    const a = await signUp(t);
    const b = await signUp(t);
    const teamOfB = (await t.clientFor(b.access_token).getMe()).team.id;
    const response = await t.request('/v2/me', {
      headers: { authorization: `Bearer ${a.access_token}`, 'x-team-id': teamOfB },
    });
    expect(response.status).toBe(404);
    const own = await t.request('/v2/me', {
      headers: { authorization: `Bearer ${b.access_token}`, 'x-team-id': teamOfB },
    });
    expect(own.status).toBe(200);
  });

  it('keeps pricing public and the rest behind a key', async () => {
    expect((await t.request('/v2/pricing')).status).toBe(200);
    await expect401({}, '/v2/tools');
    await expect401({}, '/v1/balance');
  });

  it('never echoes the token in an answer or a header', async () => {
    const token = generateApiKey();
    const response = await t.request('/v2/me', { headers: { authorization: `Bearer ${token}` } });
    const text = await response.text();
    expect(text).not.toContain(token);
    expect([...response.headers.values()].join(' ')).not.toContain(token);
  });
});
