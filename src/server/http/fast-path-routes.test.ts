import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { person } from '../testing/team-test-support.ts';
import { createTestApp, type TestApp } from '../testing/test-app.ts';
import { until } from '../testing/until.ts';
import type { AccessEntry } from './access-log.ts';
import { createApp } from './app.ts';
import { FastPath } from './fast-path.ts';
import { allRoutes } from './routes.ts';

// The routes that serve answers through the fast path, against the same app without it: same answers,
// and never one the route would not give (a revoked key, another team's job).
let t: TestApp;
const servers: Server[] = [];
const viaFastPath: AccessEntry[] = [];
let fastPathOrigin: string;
let frameworkOrigin: string;

async function listen(listener: RequestListener): Promise<string> {
  const server = createServer(listener);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  t = await createTestApp();
  const fastPath = new FastPath();
  const app = createApp(t.services, allRoutes(t.services, fastPath), () => {});
  const framework = getRequestListener(app.fetch) as RequestListener;
  fastPathOrigin = await listen(fastPath.listener(framework, (entry) => viaFastPath.push(entry)));
  frameworkOrigin = await listen(framework);
});
afterAll(async () => {
  for (const server of servers) server.closeAllConnections();
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  await t.close();
});

/** Status, headers (but the request id and date, which differ by request) and body of an answer. */
async function answer(response: Response) {
  const headers = Object.fromEntries(response.headers);
  delete headers['x-request-id'];
  delete headers.date;
  return { status: response.status, headers, body: await response.text() };
}

/**
 * Asks through both until the fast path answers (a cached key lookup steps aside while a check of changed
 * keys is due, which a loaded machine makes more often), and answers that round.
 */
async function servedFromMemory(path: string, headers: Record<string, string>) {
  let round: Awaited<ReturnType<typeof both>> | undefined;
  await until(async () => {
    round = await both(path, headers);
    return round.byFastPath;
  });
  return round!;
}

/** The same GET through the fast path and through the framework alone; says whether the fast path answered. */
async function both(path: string, headers: Record<string, string> = {}) {
  const before = viaFastPath.length;
  const fastPath = await answer(await fetch(`${fastPathOrigin}${path}`, { headers }));
  const byFastPath = viaFastPath.length > before;
  const framework = await answer(await fetch(`${frameworkOrigin}${path}`, { headers }));
  return { fastPath, framework, byFastPath };
}

async function finishedJob(apiKey: string): Promise<string> {
  const client = t.clientFor(apiKey);
  const job = await client.createImage({
    body: { model: 'local-sketch', prompt: 'a lighthouse', options: { cache: false } },
  });
  await until(
    async () => (await client.getJobStatus({ params: { id: job.id } })).status === 'completed',
    30_000,
  );
  return job.id;
}

describe('routes served through the fast path', () => {
  it('serves a finished job read with an API key exactly as the route does', async () => {
    const owner = await person(t);
    const id = await finishedJob(owner.apiKey);
    const auth = { authorization: `Bearer ${owner.apiKey}` };
    const first = await both(`/v2/jobs/${id}`, auth);
    expect(first.framework.status).toBe(200);
    expect(first.fastPath).toEqual(first.framework);
    const again = await servedFromMemory(`/v2/jobs/${id}`, auth);
    expect(again.fastPath).toEqual(again.framework);
    expect(JSON.parse(again.fastPath.body)).toMatchObject({ id, status: 'completed' });
    expect(viaFastPath.at(-1)).toMatchObject({ route: '/v2/jobs/:id', status: 200 });
  });

  it("answers another team's key with the route's 404, and a session through the route", async () => {
    const owner = await person(t);
    const stranger = await person(t);
    const id = await finishedJob(owner.apiKey);
    await both(`/v2/jobs/${id}`, { authorization: `Bearer ${owner.apiKey}` });
    for (let i = 0; i < 2; i++) {
      const other = await both(`/v2/jobs/${id}`, { authorization: `Bearer ${stranger.apiKey}` });
      expect(other.byFastPath).toBe(false);
      expect(other.fastPath).toEqual(other.framework);
      expect(other.fastPath.status).toBe(404);
    }
    const session = await both(`/v2/jobs/${id}`, { authorization: `Bearer ${owner.token}` });
    expect(session.byFastPath).toBe(false);
    expect(session.fastPath.status).toBe(200);
    expect(session.fastPath.body).toBe(session.framework.body);
  });

  it('refuses a key the moment it is revoked, though its job was served from memory just before', async () => {
    const owner = await person(t);
    const { key, api_key } = await owner.client.createApiKey({ body: { name: 'poller', revealable: false } });
    const id = await finishedJob(api_key);
    const auth = { authorization: `Bearer ${api_key}` };
    await both(`/v2/jobs/${id}`, auth);
    await servedFromMemory(`/v2/jobs/${id}`, auth);
    await owner.client.revokeApiKey({ params: { id: key.id } });
    const after = await both(`/v2/jobs/${id}`, auth);
    expect(after.byFastPath).toBe(false);
    expect(after.fastPath.status).toBe(401);
    expect(after.fastPath).toEqual(after.framework);
  });

  it('serves the price catalog as the route does: plain, compressed and as 304', async () => {
    const plain = await both('/v2/pricing');
    expect(plain.framework.status).toBe(200);
    expect(plain.fastPath).toEqual(plain.framework);
    expect((await both('/v2/pricing')).byFastPath).toBe(true);
    for (const coding of ['gzip', 'br']) {
      const headers = { 'accept-encoding': coding };
      // The first request for a coding compresses it; once made, the fast path serves it.
      await fetch(`${frameworkOrigin}/v2/pricing`, { headers }).then((r) => r.arrayBuffer());
      const compressed = await both('/v2/pricing', headers);
      expect(compressed.byFastPath).toBe(true);
      expect(compressed.fastPath.headers['content-encoding']).toBe(coding);
      expect(compressed.fastPath).toEqual(compressed.framework);
      expect(compressed.fastPath.body).toBe(plain.fastPath.body);
    }
    const etag = plain.fastPath.headers.etag!;
    const notModified = await both('/v2/pricing', { 'if-none-match': etag });
    expect(notModified.byFastPath).toBe(true);
    expect(notModified.fastPath.status).toBe(304);
    expect(notModified.fastPath).toEqual(notModified.framework);
  });
});
