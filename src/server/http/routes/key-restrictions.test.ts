import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKey, CreatedApiKey } from '../../../contract/api-keys.ts';
import { failure, memberOf, type Person, person } from '../../testing/team-test-support.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';
import { until } from '../../testing/until.ts';
import { createApp } from '../app.ts';
import { FastPath } from '../fast-path.ts';
import { allRoutes } from '../routes.ts';

/*
 * Restricted keys (issue #31) against the real app and database. The app is served on a real socket,
 * with the fast path in front as in production and TRUST_PROXY off, so the caller's address is the
 * socket's (127.0.0.1); one test runs a second app with TRUST_PROXY on. Jobs are not worked: they stay
 * queued, which is what the concurrency cap counts.
 */

let t: TestApp;
let origin: string;
const servers: Server[] = [];
let fastPathAnswers = 0;

async function listen(listener: RequestListener): Promise<string> {
  const server = createServer(listener);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  t = await createTestApp({ TRUST_PROXY: 'false' }, { work: false });
  const fastPath = new FastPath();
  const app = createApp(t.services, allRoutes(t.services, fastPath), () => {});
  origin = await listen(
    fastPath.listener(getRequestListener(app.fetch) as RequestListener, () => {
      fastPathAnswers++;
    }),
  );
});
afterAll(async () => {
  for (const server of servers) server.closeAllConnections();
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  await t.close();
});

/** A request over the socket, as a client from 127.0.0.1 makes it. */
async function call(method: string, path: string, token: string, body?: unknown, team?: string) {
  const response = await fetch(`${origin}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(team ? { 'x-team-id': team } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  const json = text ? JSON.parse(text) : null;
  return { status: response.status, headers: response.headers, json, code: json?.error?.code as string };
}

async function restrictedKey(
  owner: Person,
  restrictions: Record<string, unknown>,
  extra = {},
  team?: string,
) {
  const response = await call(
    'POST',
    '/v2/api-keys',
    owner.token,
    { name: 'restricted', ...restrictions, ...extra },
    team,
  );
  expect(response.status, JSON.stringify(response.json)).toBe(201);
  return CreatedApiKey.parse(response.json);
}

const edit = (owner: Person, id: string, body: Record<string, unknown>) =>
  call('PATCH', `/v2/api-keys/${id}`, owner.token, body);

const image = (token: string, model = 'local-sketch') =>
  call('POST', '/v2/image', token, { model, prompt: 'a kite', options: { cache: false } });

/** An image model of the catalog other than local-sketch (whether or not it can run here). */
function otherImageModel(): string {
  return t.services.catalog.modelsOf('image').find((m) => m.id !== 'local-sketch')!.id;
}

async function jobCount(keyId: string): Promise<number> {
  const { rows } = await t.db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM jobs WHERE api_key_id = $1',
    [keyId],
  );
  return rows[0]!.n;
}

describe('restrictions on the key resource', () => {
  it('are taken at creation, shown on list and get, edited field by field, and lifted with null', async () => {
    const owner = await person(t);
    const created = await restrictedKey(owner, {
      expires_at: '2099-01-01T00:00:00.000Z',
      allowed_tools: ['image', 'image', 'speech'],
      allowed_models: ['local:local-sketch'],
      allowed_ips: ['203.0.113.7', '2001:DB8::/32'],
      read_only: false,
      rate_limit_per_minute: 600,
      max_concurrent_jobs: 5,
    });
    expect(created.key).toMatchObject({
      allowed_tools: ['image', 'speech'],
      // A pinned form is stored as the model it names.
      allowed_models: ['local-sketch'],
      allowed_ips: ['203.0.113.7/32', '2001:db8::/32'],
      read_only: false,
      rate_limit_per_minute: 600,
      max_concurrent_jobs: 5,
      service: false,
      rotated_at: null,
      previous_secret_expires_at: null,
    });
    const listed = await call('GET', '/v2/api-keys', owner.token);
    const record = ApiKey.parse(listed.json.data.find((k: { id: string }) => k.id === created.key.id));
    expect(record.allowed_models).toEqual(['local-sketch']);

    const edited = await edit(owner, created.key.id, { allowed_tools: null, read_only: true, name: 'ro' });
    expect(edited.status).toBe(200);
    expect(ApiKey.parse(edited.json)).toMatchObject({
      name: 'ro',
      allowed_tools: null,
      read_only: true,
      // Fields not sent stay.
      allowed_models: ['local-sketch'],
      max_concurrent_jobs: 5,
      expires_at: '2099-01-01T00:00:00.000Z',
    });
  });

  it('refuses a bad address, an unknown model and limits out of range with 422 naming the entry', async () => {
    const owner = await person(t);
    const badIp = await call('POST', '/v2/api-keys', owner.token, {
      name: 'x',
      allowed_ips: ['10.0.0.0/8', '10.0.0.300', '::1/129'],
    });
    expect([badIp.status, badIp.code]).toEqual([422, 'invalid_request']);
    expect(badIp.json.error.details.fields.map((f: { field: string }) => f.field)).toEqual([
      'allowed_ips.1',
      'allowed_ips.2',
    ]);
    const badModel = await call('POST', '/v2/api-keys', owner.token, {
      name: 'x',
      allowed_models: ['local-sketch', 'no-such-model'],
    });
    expect([badModel.status, badModel.json.error.details.fields[0].field]).toEqual([422, 'allowed_models.1']);
    expect(badModel.json.error.message).toContain('no-such-model');
    for (const body of [{ rate_limit_per_minute: 0 }, { max_concurrent_jobs: 1001 }, { allowed_tools: [] }]) {
      const refused = await call('POST', '/v2/api-keys', owner.token, { name: 'x', ...body });
      expect([refused.status, refused.json.error.details.fields[0].field]).toEqual([
        422,
        Object.keys(body)[0],
      ]);
    }
    const key = await restrictedKey(owner, {});
    const badEdit = await edit(owner, key.key.id, { allowed_ips: ['not-an-address'] });
    expect([badEdit.status, badEdit.json.error.details.fields[0].field]).toEqual([422, 'allowed_ips.0']);
  });

  it('may be edited by the owner and a manager only; a revoked key not at all', async () => {
    const owner = await person(t);
    const manager = await memberOf(t, owner, 'manager');
    const member = await memberOf(t, owner, 'member');
    const key = await restrictedKey(owner, {});
    expect((await edit(manager, key.key.id, { read_only: true })).status).toBe(200);
    expect((await edit(member, key.key.id, { read_only: false })).code).toBe('not_found');
    await owner.client.shareApiKey({ params: { id: key.key.id }, body: { emails: [member.email] } });
    expect((await edit(member, key.key.id, { read_only: false })).code).toBe('forbidden');
    await call('DELETE', `/v2/api-keys/${key.key.id}`, owner.token);
    expect((await edit(owner, key.key.id, { read_only: false })).status).toBe(409);
  });
});

describe('allowed_models and allowed_tools', () => {
  it('keep a key restricted to one model from any other, through every route that creates a job', async () => {
    const owner = await person(t);
    const { api_key, key } = await restrictedKey(owner, { allowed_models: ['local-sketch'] });
    const other = otherImageModel();
    const refusals = [
      await image(api_key, other),
      // No model named: the tool's default model is not the allowed one.
      await call('POST', '/v2/speech', api_key, { text: 'hello' }),
      await call('POST', '/v2/tools/image/call', api_key, { model: other, prompt: 'a kite' }),
      await call('POST', '/v2/tools/speech/call', api_key, { text: 'hello' }),
      await call('POST', '/v2/templates/tpl_starter_title_card/render', api_key, {
        variables: { title: 'Launch', background: '#14532d' },
      }),
      // One allowed step does not carry the other: nothing is created.
      await call('POST', '/v2/pipeline', api_key, {
        steps: [
          { id: 'a', tool: 'image', input: { model: 'local-sketch', prompt: 'a kite' } },
          { id: 'b', tool: 'speech', input: { text: 'hello' } },
        ],
      }),
    ];
    for (const refused of refusals) {
      expect([refused.status, refused.code], JSON.stringify(refused.json)).toEqual([403, 'forbidden']);
      expect(refused.json.error.message).toContain('local-sketch');
      expect(refused.json.error.details.allowed_models).toEqual(['local-sketch']);
    }
    expect(await jobCount(key.id)).toBe(0);

    // A retry of another model's job (made with an unrestricted key of the team) is refused too.
    const made = await call('POST', '/v2/speech', owner.apiKey, { text: 'hello' });
    await call('POST', `/v2/jobs/${made.json.id}/cancel`, owner.apiKey);
    const retry = await call('POST', `/v2/jobs/${made.json.id}/retry`, api_key);
    expect([retry.status, retry.code]).toEqual([403, 'forbidden']);

    // The allowed model works, by its id and its pinned form, alone and as a pipeline's only model.
    expect((await image(api_key)).status).toBe(202);
    expect((await image(api_key, 'local:local-sketch')).status).toBe(202);
    const pipeline = await call('POST', '/v2/pipeline', api_key, {
      steps: [{ id: 'a', tool: 'image', input: { model: 'local-sketch', prompt: 'a kite' } }],
    });
    expect(pipeline.status, JSON.stringify(pipeline.json)).toBe(202);
    expect(await jobCount(key.id)).toBe(3);

    // Through MCP: its tools call the same routes, so the same refusal comes back as a tool error.
    const mcp = new Client({ name: 'restricted-test', version: '1.0.0' });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL('/mcp', origin), {
        requestInit: { headers: { authorization: `Bearer ${api_key}` } },
      }),
    );
    try {
      const result = await mcp.callTool({ name: 'generate_speech', arguments: { text: 'hello' } });
      expect(result.isError).toBe(true);
      const text = (result.content as Array<{ text: string }>)[0]!.text;
      expect(text).toContain('[forbidden]');
      expect(text).toContain('local-sketch');
      const image = await mcp.callTool({
        name: 'generate_image',
        arguments: { model: other, prompt: 'a kite' },
      });
      expect((image.content as Array<{ text: string }>)[0]!.text).toContain('[forbidden]');
    } finally {
      await mcp.close();
    }
    expect(await jobCount(key.id)).toBe(3);
  });

  it('keep a key to its tools, naming them', async () => {
    const owner = await person(t);
    const { api_key } = await restrictedKey(owner, { allowed_tools: ['image'] });
    const speech = await call('POST', '/v2/tools/speech/call', api_key, { text: 'hello' });
    expect([speech.status, speech.code]).toEqual([403, 'forbidden']);
    expect(speech.json.error.message).toContain('image');
    const pipeline = await call('POST', '/v2/pipeline', api_key, {
      steps: [{ id: 'a', tool: 'image', input: { model: 'local-sketch', prompt: 'a kite' } }],
    });
    expect([pipeline.status, pipeline.code]).toEqual([403, 'forbidden']);
    expect((await image(api_key)).status).toBe(202);
  });
});

describe('read_only', () => {
  it('reads jobs and analytics, creates and changes nothing (MCP included)', async () => {
    const owner = await person(t);
    const job = await image(owner.apiKey);
    const { api_key } = await restrictedKey(owner, { read_only: true });
    expect((await call('GET', `/v2/jobs/${job.json.id}`, api_key)).status).toBe(200);
    expect((await call('GET', '/v2/jobs', api_key)).status).toBe(200);
    expect((await call('GET', '/v2/analytics/summary', api_key)).status).toBe(200);
    for (const refused of [
      await image(api_key),
      await call('POST', `/v2/jobs/${job.json.id}/cancel`, api_key),
      await call('POST', '/v2/workspaces', api_key, { name: 'nope' }),
    ]) {
      expect([refused.status, refused.code]).toEqual([403, 'forbidden']);
      expect(refused.json.error.message).toContain('read-only');
    }
    const mcp = new Client({ name: 'read-only-test', version: '1.0.0' });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL('/mcp', origin), {
        requestInit: { headers: { authorization: `Bearer ${api_key}` } },
      }),
    );
    try {
      const made = await mcp.callTool({ name: 'generate_image', arguments: { prompt: 'a kite' } });
      expect((made.content as Array<{ text: string }>)[0]!.text).toContain('read-only');
      const read = await mcp.callTool({ name: 'get_job', arguments: { job_id: job.json.id } });
      expect(read.isError).toBeFalsy();
    } finally {
      await mcp.close();
    }
  });
});

describe('allowed_ips', () => {
  it("checks the socket's address without TRUST_PROXY, ignoring X-Forwarded-For", async () => {
    const owner = await person(t);
    const allowed = await restrictedKey(owner, { allowed_ips: ['127.0.0.0/8'] });
    expect((await call('GET', '/v2/jobs', allowed.api_key)).status).toBe(200);
    const elsewhere = await restrictedKey(owner, { allowed_ips: ['203.0.113.0/24', '2001:db8::/32'] });
    const refused = await fetch(`${origin}/v2/jobs`, {
      headers: { authorization: `Bearer ${elsewhere.api_key}`, 'x-forwarded-for': '203.0.113.9' },
    });
    expect(refused.status).toBe(403);
    expect((await refused.json()).error).toMatchObject({
      code: 'forbidden',
      details: { client_address: '127.0.0.1' },
    });
  });

  it('checks the first X-Forwarded-For hop with TRUST_PROXY', async () => {
    const proxied = await createTestApp({}, { work: false });
    try {
      const owner = await person(proxied);
      const { api_key } = CreatedApiKey.parse(
        await owner.client.createApiKey({
          body: { name: 'office', revealable: false, allowed_ips: ['203.0.113.0/24', '2001:db8::1'] },
        }),
      );
      await expect(proxied.clientFor(api_key, '203.0.113.9').listJobs()).resolves.toBeDefined();
      await expect(proxied.clientFor(api_key, '2001:db8::1').listJobs()).resolves.toBeDefined();
      const refused = await failure(proxied.clientFor(api_key, '198.51.100.7').listJobs());
      expect([refused.status, refused.code]).toEqual([403, 'forbidden']);
    } finally {
      await proxied.close();
    }
  });
});

describe('rate_limit_per_minute', () => {
  it('answers 429 rate_limited with Retry-After past the limit, on any endpoint', async () => {
    const owner = await person(t);
    const { api_key } = await restrictedKey(owner, { rate_limit_per_minute: 3 });
    // Counted in a minute's window: if this one turns as the test runs, the count restarts; ask again.
    await until(async () => {
      const answers = [];
      for (let i = 0; i < 4; i++) answers.push(await call('GET', '/v2/jobs', api_key));
      return answers.slice(0, 3).every((a) => a.status === 200) && answers[3]!.status === 429;
    });
    const limited = await call('GET', '/v2/jobs', api_key);
    expect([limited.status, limited.code]).toEqual([429, 'rate_limited']);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('max_concurrent_jobs', () => {
  it('accepts exactly the cap of parallel creations, refuses the rest with 429 and Retry-After', async () => {
    const owner = await person(t);
    const { api_key, key } = await restrictedKey(owner, { max_concurrent_jobs: 3 });
    const answers = await Promise.all(Array.from({ length: 12 }, () => image(api_key)));
    const accepted = answers.filter((a) => a.status === 202);
    const refused = answers.filter((a) => a.status === 429);
    expect([accepted.length, refused.length]).toEqual([3, 9]);
    for (const answer of refused) {
      expect(answer.code).toBe('rate_limited');
      expect(answer.json.error.message).toContain('at most 3 jobs at once');
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect(await jobCount(key.id)).toBe(3);
    // A finished (here: cancelled) job frees its place.
    await call('POST', `/v2/jobs/${accepted[0]!.json.id}/cancel`, api_key);
    expect((await image(api_key)).status).toBe(202);
    expect((await image(api_key)).status).toBe(429);
  });
});

describe('an edit', () => {
  it('takes effect on the very next request, a cached fast-path read included', async () => {
    const owner = await person(t);
    const { api_key, key } = await restrictedKey(owner, {});
    const job = await image(api_key);
    await call('POST', `/v2/jobs/${job.json.id}/cancel`, api_key);
    // Read twice: the second answer comes from the fast path's cache.
    await call('GET', `/v2/jobs/${job.json.id}`, api_key);
    const before = fastPathAnswers;
    expect((await call('GET', `/v2/jobs/${job.json.id}`, api_key)).status).toBe(200);
    expect(fastPathAnswers).toBe(before + 1);

    expect((await edit(owner, key.id, { allowed_ips: ['203.0.113.0/24'] })).status).toBe(200);
    const refused = await call('GET', `/v2/jobs/${job.json.id}`, api_key);
    expect([refused.status, refused.code]).toEqual([403, 'forbidden']);

    expect((await edit(owner, key.id, { allowed_ips: null, allowed_tools: ['speech'] })).status).toBe(200);
    expect((await call('GET', `/v2/jobs/${job.json.id}`, api_key)).status).toBe(200);
    expect((await image(api_key)).code).toBe('forbidden');
  });
});

describe('rotation', () => {
  it('answers a new secret once; the old one works through its grace, then answers 401', async () => {
    const owner = await person(t);
    const { api_key: old, key } = await restrictedKey(owner, {}, { revealable: true });
    expect((await call('GET', '/v2/jobs', old)).status).toBe(200); // cached lookup of the old secret
    const rotated = await call('POST', `/v2/api-keys/${key.id}/rotate`, owner.token, { grace_seconds: 5 });
    expect(rotated.status).toBe(200);
    expect(rotated.headers.get('cache-control')).toBe('no-store');
    const { api_key: fresh, key: record } = CreatedApiKey.parse(rotated.json);
    expect(fresh).not.toBe(old);
    expect(record.id).toBe(key.id);
    expect(fresh.endsWith(record.last4)).toBe(true);
    expect(record.rotated_at).not.toBeNull();
    expect(Date.parse(record.previous_secret_expires_at!)).toBeGreaterThan(Date.now());
    // Hashed at rest: neither secret is in the row (the revealable copy is ciphertext).
    const { rows } = await t.db.query('SELECT * FROM api_keys WHERE id = $1', [key.id]);
    expect(JSON.stringify(rows[0])).not.toContain(fresh);
    const revealed = await call('POST', `/v2/api-keys/${key.id}/reveal`, owner.token);
    expect(revealed.json.api_key).toBe(fresh);

    expect((await call('GET', '/v2/jobs', fresh)).status).toBe(200);
    expect((await call('GET', '/v2/jobs', old)).status).toBe(200);
    await until(async () => (await call('GET', '/v2/jobs', old)).status === 401, 20_000);
    expect((await call('GET', '/v2/jobs', fresh)).status).toBe(200);
  });

  it('without a grace stops the old secret on the very next request; a revoked key cannot be rotated', async () => {
    const owner = await person(t);
    const { api_key: old, key } = await restrictedKey(owner, {});
    expect((await call('GET', '/v2/jobs', old)).status).toBe(200);
    const rotated = await call('POST', `/v2/api-keys/${key.id}/rotate`, owner.token, {});
    expect(CreatedApiKey.parse(rotated.json).key.previous_secret_expires_at).toBeNull();
    expect((await call('GET', '/v2/jobs', old)).status).toBe(401);
    const tooLong = await call('POST', `/v2/api-keys/${key.id}/rotate`, owner.token, {
      grace_seconds: 7 * 24 * 3600 + 1,
    });
    expect([tooLong.status, tooLong.json.error.details.fields[0].field]).toEqual([422, 'grace_seconds']);
    await call('DELETE', `/v2/api-keys/${key.id}`, owner.token);
    expect((await call('POST', `/v2/api-keys/${key.id}/rotate`, owner.token, {})).status).toBe(409);
  });
});

describe('service keys', () => {
  it("belong to the team, outlive their maker's removal, and attribute runs to the key", async () => {
    const owner = await person(t);
    const manager = await memberOf(t, owner, 'manager');
    const member = await memberOf(t, owner, 'member');
    const refused = await call(
      'POST',
      '/v2/api-keys',
      member.token,
      { name: 'svc', owner: 'team' },
      owner.teamId,
    );
    expect([refused.status, refused.code]).toEqual([403, 'forbidden']);

    const service = await restrictedKey(manager, {}, { owner: 'team' }, owner.teamId);
    expect(service.key).toMatchObject({
      service: true,
      owner: null,
      relation: 'team',
      team_id: owner.teamId,
    });
    const personal = await restrictedKey(manager, {}, {}, owner.teamId);
    const job = await image(service.api_key);
    expect(job.status).toBe(202);
    const { rows } = await t.db.query('SELECT person_id, api_key_id FROM jobs WHERE id = $1', [job.json.id]);
    expect(rows[0]).toEqual({ person_id: null, api_key_id: service.key.id });

    await owner.client.removeTeamMember({ params: { user_id: manager.id } });
    expect((await call('GET', '/v2/jobs', personal.api_key)).status).toBe(401);
    expect((await call('GET', '/v2/jobs', service.api_key)).status).toBe(200);
    // Still the team's to manage.
    expect((await edit(owner, service.key.id, { read_only: true })).status).toBe(200);
  });
});
