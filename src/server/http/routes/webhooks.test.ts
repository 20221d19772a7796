import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorEnvelope } from '../../../contract/errors.ts';
import { RotatedWebhookSecret, WebhookSecret } from '../../../contract/webhooks.ts';
import { createTestApp, signUp, type TestApp } from '../../testing/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

async function call(method: 'GET' | 'POST', path: string, token?: string, teamId?: string) {
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (teamId) headers['x-team-id'] = teamId;
  const response = await t.request(path, { method, headers });
  return { response, body: (await response.json()) as unknown };
}

const read = (token?: string, teamId?: string) => call('GET', '/v2/webhooks/secret', token, teamId);
const rotate = (token?: string, teamId?: string, query = '') =>
  call('POST', `/v2/webhooks/secret/rotate${query}`, token, teamId);

describe('GET /v2/webhooks/secret', () => {
  it('makes the team secret on first read and answers the same one, with no-store, to a key or a session', async () => {
    const owner = await signUp(t);
    const first = await read(owner.api_key);
    expect(first.response.status).toBe(200);
    expect(first.response.headers.get('cache-control')).toBe('no-store');
    const secret = WebhookSecret.parse(first.body);
    expect(secret.secret).toMatch(/^whsec_/);
    expect(Buffer.from(secret.secret.slice(6), 'base64').length).toBeGreaterThanOrEqual(24);

    const bySession = await read(owner.access_token);
    expect(bySession.response.headers.get('cache-control')).toBe('no-store');
    expect(WebhookSecret.parse(bySession.body)).toEqual(secret);
    expect(await t.clientFor(owner.api_key).getWebhookSecret()).toEqual(secret);
  });

  it('gives every team its own secret', async () => {
    const a = WebhookSecret.parse((await read((await signUp(t)).api_key)).body);
    const b = WebhookSecret.parse((await read((await signUp(t)).api_key)).body);
    expect(a.secret).not.toBe(b.secret);
  });

  it('answers 401 without credentials', async () => {
    const { response, body } = await read();
    expect(response.status).toBe(401);
    expect(ErrorEnvelope.parse(body).error.code).toBe('unauthorized');
  });
});

describe('POST /v2/webhooks/secret/rotate', () => {
  it('replaces the secret for an owner, with no-store; reads answer the new one', async () => {
    const owner = await signUp(t);
    const before = WebhookSecret.parse((await read(owner.api_key)).body);
    const rotated = await rotate(owner.access_token);
    expect(rotated.response.status).toBe(200);
    expect(rotated.response.headers.get('cache-control')).toBe('no-store');
    const after = WebhookSecret.parse(rotated.body);
    expect(after.secret).not.toBe(before.secret);
    expect(Date.parse(after.created_at)).toBeGreaterThanOrEqual(Date.parse(before.created_at));
    expect(WebhookSecret.parse((await read(owner.api_key)).body)).toEqual(after);
    const viaClient = await t.clientFor(owner.access_token).rotateWebhookSecret();
    expect(viaClient.secret).not.toBe(after.secret);
  });

  it('keeps the replaced secret signing for overlap_seconds: a day by default, none with 0, at most a week', async () => {
    const owner = await signUp(t);
    // Rotating before the team ever had a secret has nothing to overlap with.
    const first = RotatedWebhookSecret.parse((await rotate(owner.access_token)).body);
    expect(first.previous_secret_expires_at).toBeNull();
    const day = RotatedWebhookSecret.parse((await rotate(owner.access_token)).body);
    const dayLong = Date.parse(day.previous_secret_expires_at!) - Date.parse(day.created_at);
    expect(dayLong).toBeGreaterThanOrEqual(86_400_000 - 1000);
    expect(dayLong).toBeLessThanOrEqual(86_400_000 + 1000);

    const week = RotatedWebhookSecret.parse(
      (await rotate(owner.access_token, undefined, '?overlap_seconds=604800')).body,
    );
    expect(Date.parse(week.previous_secret_expires_at!) - Date.parse(week.created_at)).toBeGreaterThan(
      604_800_000 - 1000,
    );
    const none = await t.clientFor(owner.access_token).rotateWebhookSecret({ query: { overlap_seconds: 0 } });
    expect(none.previous_secret_expires_at).toBeNull();

    for (const bad of ['604801', '-1', '1.5', 'soon']) {
      const refused = await rotate(owner.access_token, undefined, `?overlap_seconds=${bad}`);
      expect(refused.response.status).toBe(422);
      expect(ErrorEnvelope.parse(refused.body).error.code).toBe('invalid_request');
    }
    // A refused rotation changed nothing.
    expect(WebhookSecret.parse((await read(owner.api_key)).body).secret).toBe(none.secret);
  });

  it('needs an app session: an API key gets 401', async () => {
    const owner = await signUp(t);
    const { response, body } = await rotate(owner.api_key);
    expect(response.status).toBe(401);
    expect(ErrorEnvelope.parse(body).error.code).toBe('unauthorized');
  });

  it('lets a manager rotate and refuses a member with 403 forbidden', async () => {
    const owner = await signUp(t);
    const me = await t.clientFor(owner.api_key).getMe();
    const teamId = me.team.id;
    const secret = WebhookSecret.parse((await read(owner.api_key)).body);

    const member = await signUp(t);
    const memberId = (await t.clientFor(member.api_key).getMe()).person!.id;
    await t.db.query(`INSERT INTO memberships (team_id, person_id, role) VALUES ($1, $2, 'member')`, [
      teamId,
      memberId,
    ]);
    // A member may read the team's secret (to verify webhooks) but not rotate it.
    expect(WebhookSecret.parse((await read(member.access_token, teamId)).body)).toEqual(secret);
    const refused = await rotate(member.access_token, teamId);
    expect(refused.response.status).toBe(403);
    expect(ErrorEnvelope.parse(refused.body).error.code).toBe('forbidden');
    expect(WebhookSecret.parse((await read(owner.api_key)).body)).toEqual(secret);

    await t.db.query(`UPDATE memberships SET role = 'manager' WHERE team_id = $1 AND person_id = $2`, [
      teamId,
      memberId,
    ]);
    const allowed = await rotate(member.access_token, teamId);
    expect(allowed.response.status).toBe(200);
    expect(WebhookSecret.parse(allowed.body).secret).not.toBe(secret.secret);
  });
});
