import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  ApiKey,
  ApiKeyShares,
  CreatedApiKey,
  listApiKeyReveals,
  ShareApiKeyResponse,
} from '../../../contract/api-keys.ts';
import { ErrorEnvelope } from '../../../contract/errors.ts';
import { ApiKeyResolver } from '../../domain/identity/api-keys.ts';
import { open } from '../../domain/identity/sealed-box.ts';
import {
  failure,
  freshEmail,
  insertPeople,
  memberOf,
  type Person,
  person,
} from '../../testing/team-test-support.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';
import { createAuthenticator } from '../auth.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({}, { work: false });
});
afterAll(() => t.close());

async function createKey(owner: Person, revealable: boolean, name = 'ci') {
  return CreatedApiKey.parse(await owner.client.createApiKey({ body: { name, revealable } }));
}

async function post(
  path: string,
  token: string | null,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  return t.request(path, {
    method: 'POST',
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    body: body ? JSON.stringify(body) : undefined,
  });
}

/** Every column of the key's row as text (bytea as hex and as UTF-8), to look for the secret in it. */
async function rowText(keyId: string): Promise<string> {
  const { rows } = await t.db.query('SELECT * FROM api_keys WHERE id = $1', [keyId]);
  return Object.values(rows[0]!)
    .map((v) => (Buffer.isBuffer(v) ? `${v.toString('hex')} ${v.toString('latin1')}` : String(v)))
    .join(' ');
}

describe('creating keys', () => {
  it('answers the full key once, never cached, and lists it as owned', async () => {
    const a = await person(t);
    const response = await post('/v2/api-keys', a.token, { name: '  deploy  ', revealable: false });
    expect(response.status).toBe(201);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const created = CreatedApiKey.parse(await response.json());
    expect(created.api_key).toMatch(/^mcsk_/);
    expect(created.key).toMatchObject({
      name: 'deploy',
      relation: 'owned',
      revealable: false,
      team_id: a.teamId,
      owner: { user_id: a.id, email: a.email },
      share_count: 0,
      shared: false,
      last_used_at: null,
      revoked_at: null,
    });
    expect(created.api_key.startsWith(created.key.start)).toBe(true);
    expect(created.api_key.endsWith(created.key.last4)).toBe(true);
    const listed = await a.client.listApiKeys();
    expect(listed.data.map((k) => k.id)).toContain(created.key.id);
    expect(JSON.stringify(listed)).not.toContain(created.api_key);
    for (const key of listed.data) ApiKey.parse(key);
  });

  it('keeps only the hash of a non-revealable key, and only ciphertext of a revealable one', async () => {
    const a = await person(t);
    const plain = await createKey(a, false);
    expect(await rowText(plain.key.id)).not.toContain(plain.api_key);
    const { rows } = await t.db.query('SELECT secret_encrypted FROM api_keys WHERE id = $1', [plain.key.id]);
    expect(rows[0].secret_encrypted).toBeNull();

    const sealed = await createKey(a, true);
    expect(await rowText(sealed.key.id)).not.toContain(sealed.api_key);
    const again = await t.db.query('SELECT secret_encrypted FROM api_keys WHERE id = $1', [sealed.key.id]);
    expect(open(t.services.keys.encryption, again.rows[0].secret_encrypted)).toBe(sealed.api_key);
  });

  it('refuses a name that is empty or longer than 100 characters, naming the field', async () => {
    const a = await person(t);
    for (const name of ['', ' ', 'n'.repeat(101)]) {
      const error = await failure(a.client.createApiKey({ body: { name, revealable: false } }));
      expect(error.status).toBe(422);
      expect(JSON.stringify(error.details)).toContain('"name"');
    }
    await expect(createKey(a, false, 'n'.repeat(100))).resolves.toBeTruthy();
  });

  it('needs a session: an API key is refused', async () => {
    const a = await person(t);
    const response = await post('/v2/api-keys', a.apiKey, { name: 'x' });
    expect(response.status).toBe(401);
  });

  it('is rate limited per person (30 an hour)', async () => {
    const a = await person(t);
    for (let i = 0; i < 30; i++) await createKey(a, false, `k${i}`);
    const error = await failure(a.client.createApiKey({ body: { name: 'one more', revealable: false } }));
    expect([error.status, error.code]).toEqual([429, 'rate_limited']);
    expect(error.retryAfter).toBeGreaterThan(0);
  });

  it('records when a key was last used', async () => {
    const a = await person(t);
    const created = await createKey(a, false);
    await t.clientFor(created.api_key).getMe();
    await expect
      .poll(
        async () => (await a.client.listApiKeys()).data.find((k) => k.id === created.key.id)?.last_used_at,
      )
      .not.toBeNull();
  });

  it('pages newest first with a cursor', async () => {
    const a = await person(t);
    for (const name of ['k1', 'k2', 'k3']) await createKey(a, false, name);
    const first = await a.client.listApiKeys({ query: { limit: 2 } });
    expect(first.data.map((k) => k.name)).toEqual(['k3', 'k2']);
    const second = await a.client.listApiKeys({ query: { limit: 2, cursor: first.next_cursor! } });
    expect(second.data.map((k) => k.name)).toEqual(['k1', 'Default key']);
    expect(second.next_cursor).toBeNull();
  });
});

describe('expiring keys (issue #31)', () => {
  it('shows expires_at on the key, works until then, and answers 401 api_key_expired after', async () => {
    const a = await person(t);
    const expiresAt = new Date(Date.now() + 60_000).toISOString();
    const created = CreatedApiKey.parse(
      await a.client.createApiKey({ body: { name: 'temp', revealable: false, expires_at: expiresAt } }),
    );
    expect(created.key.expires_at).toBe(expiresAt);
    const listed = (await a.client.listApiKeys()).data.find((k) => k.id === created.key.id);
    expect(listed?.expires_at).toBe(expiresAt);
    const user = t.clientFor(created.api_key);
    await user.getMe(); // now cached by the resolver
    // Date alone is faked: the cached lookup must not outlive the expiry.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.parse(expiresAt) + 1);
      const expired = await failure(user.getMe());
      expect([expired.status, expired.code]).toEqual([401, 'api_key_expired']);
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps an expired key off the cached fast path', async () => {
    const a = await person(t);
    const expiresAt = Date.now() + 60_000;
    const created = CreatedApiKey.parse(
      await a.client.createApiKey({
        body: { name: 'temp', revealable: false, expires_at: new Date(expiresAt).toISOString() },
      }),
    );
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const resolver = new ApiKeyResolver(t.db);
      expect(await resolver.resolve(created.api_key)).not.toBeNull();
      expect(resolver.resolveCached(created.api_key)?.apiKeyId).toBe(created.key.id);
      vi.setSystemTime(expiresAt);
      expect(resolver.resolveCached(created.api_key)).toBeUndefined();
    } finally {
      vi.useRealTimers();
    }
  });

  it('never expires a key created without expires_at', async () => {
    const a = await person(t);
    const created = await createKey(a, false);
    expect(created.key.expires_at).toBeNull();
  });
});

describe('revoking keys', () => {
  it('stops the key at once, keeps it listed only with include_revoked, and repeats harmlessly', async () => {
    const a = await person(t);
    const created = await createKey(a, true);
    const user = t.clientFor(created.api_key);
    await user.getMe(); // now cached by the resolver
    const revoked = ApiKey.parse(await a.client.revokeApiKey({ params: { id: created.key.id } }));
    expect(revoked.revoked_at).not.toBeNull();
    expect((await failure(user.getMe())).status).toBe(401);
    expect((await a.client.listApiKeys()).data.map((k) => k.id)).not.toContain(created.key.id);
    const all = await a.client.listApiKeys({ query: { include_revoked: true } });
    expect(all.data.find((k) => k.id === created.key.id)?.revoked_at).toBe(revoked.revoked_at);
    const again = await a.client.revokeApiKey({ params: { id: created.key.id } });
    expect(again.revoked_at).toBe(revoked.revoked_at);
    // A revoked key is never shown again: its encrypted copy is gone.
    const { rows } = await t.db.query('SELECT secret_encrypted FROM api_keys WHERE id = $1', [
      created.key.id,
    ]);
    expect(rows[0].secret_encrypted).toBeNull();
    const reveal = await failure(a.client.revealApiKey({ params: { id: created.key.id } }));
    expect([reveal.status, reveal.code]).toEqual([409, 'api_key_not_revealable']);
  });

  it('stops the key within a second in another process that had it cached', async () => {
    const a = await person(t);
    const created = await createKey(a, false);
    // The resolver's clock is faked (Date alone: timers and the database run as usual), so "a second
    // later" is a second later without waiting one.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const otherProcess = new ApiKeyResolver(t.db);
      expect(await otherProcess.resolve(created.api_key)).not.toBeNull();
      await a.client.revokeApiKey({ params: { id: created.key.id } });
      vi.setSystemTime(Date.now() + 1_000);
      expect(await otherProcess.resolve(created.api_key)).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });

  it("answers another person's key as not found, and a shared-with person as forbidden", async () => {
    const a = await person(t);
    const b = await person(t);
    const created = await createKey(a, false);
    expect((await failure(b.client.revokeApiKey({ params: { id: created.key.id } }))).status).toBe(404);
    await a.client.shareApiKey({ params: { id: created.key.id }, body: { emails: [b.email] } });
    expect((await failure(b.client.revokeApiKey({ params: { id: created.key.id } }))).code).toBe('forbidden');
    await expect(t.clientFor(created.api_key).getMe()).resolves.toBeTruthy();
  });
});

describe('POST /v2/api-keys/{id}/reveal (spec 4.11)', () => {
  it('shows a revealable key to its owner, never cached, and logs who, when and from where', async () => {
    const a = await person(t);
    const created = await createKey(a, true);
    const response = await post(`/v2/api-keys/${created.key.id}/reveal`, a.token, undefined, {
      'user-agent': 'reveal-test/1.0',
      'x-forwarded-for': '198.51.100.42',
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toEqual({ api_key: created.api_key });
    const log = listApiKeyReveals.responses[200].schema.parse(
      await a.client.listApiKeyReveals({ params: { id: created.key.id } }),
    );
    expect(log.data).toHaveLength(1);
    expect(log.data[0]).toMatchObject({
      api_key_id: created.key.id,
      person: { user_id: a.id, email: a.email },
      ip_address: '198.51.100.42',
      user_agent: 'reveal-test/1.0',
    });
    expect(JSON.stringify(log)).not.toContain(created.api_key);
  });

  it('refuses an API key and a missing credential with 401 unauthorized', async () => {
    const a = await person(t);
    const created = await createKey(a, true);
    for (const token of [a.apiKey, created.api_key, null]) {
      const response = await post(`/v2/api-keys/${created.key.id}/reveal`, token);
      expect(response.status).toBe(401);
      const body = await response.text();
      expect(ErrorEnvelope.parse(JSON.parse(body)).error.code).toBe('unauthorized');
      expect(body).not.toContain(created.api_key);
    }
    expect((await a.client.listApiKeyReveals({ params: { id: created.key.id } })).data).toHaveLength(0);
  });

  it('answers 409 api_key_not_revealable for a key shown once', async () => {
    const a = await person(t);
    const created = await createKey(a, false);
    const response = await post(`/v2/api-keys/${created.key.id}/reveal`, a.token);
    expect(response.status).toBe(409);
    expect(ErrorEnvelope.parse(await response.json()).error.code).toBe('api_key_not_revealable');
  });

  it('is refused (404) to another person and to a plain member of the team; allowed to a manager', async () => {
    const a = await person(t);
    const stranger = await person(t);
    const member = await memberOf(t, a, 'member');
    const manager = await memberOf(t, a, 'manager');
    const created = await createKey(a, true);
    for (const who of [stranger, member]) {
      const error = await failure(who.client.revealApiKey({ params: { id: created.key.id } }));
      expect([error.status, error.code]).toEqual([404, 'not_found']);
    }
    expect(await manager.client.revealApiKey({ params: { id: created.key.id } })).toEqual({
      api_key: created.api_key,
    });
    // Nor does an unknown id tell anything apart.
    const unknown = await failure(stranger.client.revealApiKey({ params: { id: 'key_0000000000000000' } }));
    expect(unknown.status).toBe(404);
    const log = await a.client.listApiKeyReveals({ params: { id: created.key.id } });
    expect(log.data.map((r) => r.person.user_id)).toEqual([manager.id]);
  });

  it('shows a shared key to the person it is shared with, who may not read the log', async () => {
    const a = await person(t);
    const b = await person(t);
    const created = await createKey(a, true);
    await a.client.shareApiKey({ params: { id: created.key.id }, body: { emails: [b.email] } });
    expect((await b.client.revealApiKey({ params: { id: created.key.id } })).api_key).toBe(created.api_key);
    const log = await failure(b.client.listApiKeyReveals({ params: { id: created.key.id } }));
    expect(log.code).toBe('forbidden');
  });

  it('is rate limited per person', async () => {
    const a = await person(t);
    const created = await createKey(a, true);
    for (let i = 0; i < 20; i++) await a.client.revealApiKey({ params: { id: created.key.id } });
    const error = await failure(a.client.revealApiKey({ params: { id: created.key.id } }));
    expect([error.status, error.code]).toEqual([429, 'rate_limited']);
    expect((await a.client.listApiKeyReveals({ params: { id: created.key.id } })).data).toHaveLength(20);
  });
});

describe('POST /v2/api-keys/{id}/shares (spec 4.11)', () => {
  it('shares with known accounts, returns unknown addresses in not_found and lists the shares', async () => {
    const a = await person(t);
    const b = await person(t);
    const created = await createKey(a, true);
    const unknown = freshEmail('nobody');
    const answer = ShareApiKeyResponse.parse(
      await a.client.shareApiKey({
        params: { id: created.key.id },
        body: { emails: [b.email.toUpperCase(), unknown, a.email, b.email] },
      }),
    );
    expect(answer.not_found).toEqual([unknown]);
    expect(answer.owner).toMatchObject({ user_id: a.id, email: a.email });
    expect(answer.shares.map((s) => s.user_id)).toEqual([b.id]);
    expect(await t.db.query('SELECT 1 FROM persons WHERE email = $1', [unknown])).toMatchObject({
      rowCount: 0,
    });
    const listed = ApiKeyShares.parse(await b.client.listApiKeyShares({ params: { id: created.key.id } }));
    expect(listed.shares.map((s) => s.email)).toEqual([b.email]);
    const seenByB = (await b.client.listApiKeys()).data.find((k) => k.id === created.key.id);
    expect(seenByB).toMatchObject({ relation: 'shared', shared: true, share_count: 1 });
    expect((await b.client.listApiKeys({ query: { filter: 'owned' } })).data.map((k) => k.id)).not.toContain(
      created.key.id,
    );
  });

  it('shows a recipient only their own share; the owner and a manager of the team see them all', async () => {
    const a = await person(t);
    const manager = await memberOf(t, a, 'manager');
    const b = await person(t);
    const c = await person(t);
    const created = await createKey(a, false);
    await a.client.shareApiKey({ params: { id: created.key.id }, body: { emails: [b.email, c.email] } });
    for (const [recipient, other] of [
      [b, c],
      [c, b],
    ] as const) {
      const listed = ApiKeyShares.parse(
        await recipient.client.listApiKeyShares({ params: { id: created.key.id } }),
      );
      expect(listed.shares.map((s) => s.email)).toEqual([recipient.email]);
      expect(JSON.stringify(listed)).not.toContain(other.email);
      expect(listed.owner.email).toBe(a.email);
    }
    for (const who of [a.client, manager.client]) {
      const listed = await who.listApiKeyShares({
        params: { id: created.key.id },
        headers: { 'x-team-id': a.teamId },
      });
      expect(listed.shares.map((s) => s.email).sort()).toEqual([b.email, c.email].sort());
    }
  });

  it('takes 1 to 20 addresses of at most 254 characters (422 naming the field)', async () => {
    const a = await person(t);
    const created = await createKey(a, false);
    const tooMany = Array.from({ length: 21 }, () => freshEmail());
    const cases: Array<[unknown, string]> = [
      [[], 'emails'],
      [tooMany, 'emails'],
      [[`${'a'.repeat(64)}@${'d'.repeat(63)}.${'e'.repeat(63)}.${'f'.repeat(58)}.com`], 'emails.0'],
      [['not-an-email'], 'emails.0'],
    ];
    for (const [emails, field] of cases) {
      const response = await post(`/v2/api-keys/${created.key.id}/shares`, a.token, { emails });
      expect(response.status).toBe(422);
      const body = ErrorEnvelope.parse(await response.json());
      expect((body.error.details as { fields: Array<{ field: string }> }).fields[0]!.field).toBe(field);
    }
    const ok = await post(`/v2/api-keys/${created.key.id}/shares`, a.token, { emails: tooMany.slice(0, 20) });
    expect(ok.status).toBe(200);
  });

  it('allows the owner and managers; a shared-with person gets 403, a plain member and a stranger 404', async () => {
    const a = await person(t);
    const member = await memberOf(t, a, 'member');
    const manager = await memberOf(t, a, 'manager');
    const stranger = await person(t);
    const shared = await person(t);
    const created = await createKey(a, false);
    const share = (who: Person, emails: string[]) =>
      who.client.shareApiKey({ params: { id: created.key.id }, body: { emails } });
    await share(manager, [shared.email]);
    expect((await failure(share(shared, [stranger.email]))).status).toBe(403);
    expect((await failure(share(member, [stranger.email]))).status).toBe(404);
    expect((await failure(share(stranger, [stranger.email]))).status).toBe(404);
    expect((await failure(stranger.client.listApiKeyShares({ params: { id: created.key.id } }))).status).toBe(
      404,
    );
    expect((await manager.client.listApiKeys({ query: { filter: 'team' } })).data.map((k) => k.id)).toContain(
      created.key.id,
    );
    expect((await member.client.listApiKeys()).data.map((k) => k.id)).not.toContain(created.key.id);
  });

  it('shares with at most 50 people: a request past it shares with nobody (422 share_limit_reached naming emails)', async () => {
    const a = await person(t);
    const created = await createKey(a, false);
    const people = await insertPeople(t, 51);
    for (let i = 0; i < 40; i += 20) {
      await a.client.shareApiKey({
        params: { id: created.key.id },
        body: { emails: people.slice(i, i + 20) },
      });
    }
    const error = await failure(
      a.client.shareApiKey({ params: { id: created.key.id }, body: { emails: people.slice(40, 51) } }),
    );
    expect([error.status, error.code]).toEqual([422, 'share_limit_reached']);
    expect(JSON.stringify(error.details)).toContain('"field":"emails"');
    expect((await a.client.listApiKeyShares({ params: { id: created.key.id } })).shares).toHaveLength(40);
    // Exactly 50, and re-sharing with someone who has it already adds nobody.
    const full = await a.client.shareApiKey({
      params: { id: created.key.id },
      body: { emails: [...people.slice(40, 50), people[0]!] },
    });
    expect(full.shares).toHaveLength(50);
  });

  it('holds the limit when two requests race', async () => {
    const a = await person(t);
    const created = await createKey(a, false);
    const people = await insertPeople(t, 60);
    await a.client.shareApiKey({ params: { id: created.key.id }, body: { emails: people.slice(0, 20) } });
    await a.client.shareApiKey({ params: { id: created.key.id }, body: { emails: people.slice(20, 40) } });
    const results = await Promise.allSettled([
      a.client.shareApiKey({ params: { id: created.key.id }, body: { emails: people.slice(40, 50) } }),
      a.client.shareApiKey({ params: { id: created.key.id }, body: { emails: people.slice(50, 60) } }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect((await a.client.listApiKeyShares({ params: { id: created.key.id } })).shares).toHaveLength(50);
  });

  it('is rate limited per person (429)', async () => {
    const a = await person(t);
    const b = await person(t);
    const created = await createKey(a, false);
    for (let i = 0; i < 30; i++) {
      await a.client.shareApiKey({ params: { id: created.key.id }, body: { emails: [b.email] } });
    }
    const error = await failure(
      a.client.shareApiKey({ params: { id: created.key.id }, body: { emails: [b.email] } }),
    );
    expect([error.status, error.code]).toEqual([429, 'rate_limited']);
  });

  it('refuses an API key (401) and a revoked key (409 conflict)', async () => {
    const a = await person(t);
    const created = await createKey(a, false);
    const response = await post(`/v2/api-keys/${created.key.id}/shares`, a.apiKey, { emails: [a.email] });
    expect(response.status).toBe(401);
    await a.client.revokeApiKey({ params: { id: created.key.id } });
    const error = await failure(
      a.client.shareApiKey({ params: { id: created.key.id }, body: { emails: [freshEmail()] } }),
    );
    expect([error.status, error.code]).toEqual([409, 'conflict']);
  });
});

describe('removing shares', () => {
  it('lets the owner remove anyone, a person leave, and refuses a shared-with person removing another', async () => {
    const a = await person(t);
    const b = await person(t);
    const c = await person(t);
    const created = await createKey(a, true);
    const id = created.key.id;
    await a.client.shareApiKey({ params: { id }, body: { emails: [b.email, c.email] } });
    const error = await failure(b.client.removeApiKeyShare({ params: { id, user_id: c.id } }));
    expect(error.code).toBe('forbidden');
    await b.client.removeApiKeyShare({ params: { id, user_id: b.id } });
    expect((await failure(b.client.revealApiKey({ params: { id } }))).status).toBe(404);
    await a.client.removeApiKeyShare({ params: { id, user_id: c.id } });
    expect((await a.client.listApiKeyShares({ params: { id } })).shares).toEqual([]);
    const again = await failure(a.client.removeApiKeyShare({ params: { id, user_id: c.id } }));
    expect(again.status).toBe(404);
  });
});

describe('acting for a team through a shared key', () => {
  it('accepts the team on key and analytics endpoints only, as a non-member', async () => {
    const a = await person(t);
    const b = await person(t);
    const created = await createKey(a, false);
    const asTeamA = { 'x-team-id': a.teamId };
    expect((await failure(b.client.getMe({ headers: asTeamA }))).status).toBe(404);
    expect((await failure(b.client.listApiKeys({ headers: asTeamA } as never))).status).toBe(404);
    expect((await failure(b.client.getAnalyticsSummary({ headers: asTeamA } as never))).status).toBe(404);
    await a.client.shareApiKey({ params: { id: created.key.id }, body: { emails: [b.email] } });
    expect((await failure(b.client.getMe({ headers: asTeamA }))).status).toBe(404);
    expect((await failure(b.client.listTeamMembers({ headers: asTeamA }))).status).toBe(404);
    const listed = await b.client.listApiKeys({ headers: asTeamA } as never);
    expect(listed.data.map((k) => k.id)).toContain(created.key.id);
    const analytics = await b.client.getAnalyticsSummary({ headers: asTeamA } as never);
    expect(analytics.meta.attribution_scope).toBe('self');
    expect((await a.client.getAnalyticsSummary()).meta.attribution_scope).toBe('full');
    const create = await failure(
      b.client.createApiKey({ body: { name: 'mine', revealable: false }, headers: asTeamA } as never),
    );
    expect(create.code).toBe('forbidden');
  });

  it('gives such a session a context with no role, marked shared, naming the shared keys', async () => {
    const a = await person(t);
    const b = await person(t);
    const created = await createKey(a, false);
    await a.client.shareApiKey({ params: { id: created.key.id }, body: { emails: [b.email] } });
    const auth = createAuthenticator(t.db, t.services.apiKeys, t.services.sessions);
    const shared = await auth.authenticate(`Bearer ${b.token}`, 'session', a.teamId, { sharedAccess: true });
    expect(shared).toMatchObject({
      personId: b.id,
      teamId: a.teamId,
      role: null,
      membership: 'shared',
      sharedKeyIds: [created.key.id],
    });
    await expect(auth.authenticate(`Bearer ${b.token}`, 'session', a.teamId)).rejects.toMatchObject({
      code: 'not_found',
    });
    const own = await auth.authenticate(`Bearer ${b.token}`, 'session', undefined, { sharedAccess: true });
    expect(own).toMatchObject({ teamId: b.teamId, role: 'owner', membership: 'member', sharedKeyIds: [] });
  });
});
