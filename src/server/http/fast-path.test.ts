import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { EndpointDef } from '../../contract/endpoint.ts';
import type { AccessEntry } from './access-log.ts';
import { type FastHandler, FastPath } from './fast-path.ts';

const endpoint = (method: EndpointDef['method'], path: string) =>
  ({ method, path, auth: 'none' }) as unknown as EndpointDef;

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** A server with `fastPath` ahead of a framework stand-in that answers 299 "framework". */
async function serve(fastPath: FastPath) {
  const recorded: AccessEntry[] = [];
  const framework: RequestListener = (_req, res) => {
    res.writeHead(299, { 'content-type': 'text/plain' });
    res.end('framework');
  };
  server = createServer(fastPath.listener(framework, (entry) => recorded.push(entry)));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const get = (path: string, init: RequestInit = {}) => fetch(`http://127.0.0.1:${port}${path}`, init);
  return { get, recorded };
}

const json = (body: string): ReturnType<FastHandler> => ({
  status: 200,
  headers: { 'content-type': 'application/json' },
  body,
});

describe('the fast path', () => {
  it('answers a known path with the headers every answer carries, and records it by route', async () => {
    const fastPath = new FastPath();
    fastPath.add(endpoint('GET', '/v2/pricing'), () => json('{"data":[]}'));
    const { get, recorded } = await serve(fastPath);
    const response = await get('/v2/pricing');
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('{"data":[]}');
    expect(response.headers.get('content-length')).toBe('11');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    const requestId = response.headers.get('x-request-id');
    expect(requestId).toMatch(/^req_[0-9a-f]{10}[0-9a-z]{6,}$/);
    expect(recorded).toEqual([
      expect.objectContaining({
        requestId,
        method: 'GET',
        path: '/v2/pricing',
        route: '/v2/pricing',
        status: 200,
      }),
    ]);
  });

  it("keeps the caller's plain X-Request-Id and replaces one that is not", async () => {
    const fastPath = new FastPath();
    fastPath.add(endpoint('GET', '/v2/pricing'), () => json('{}'));
    const { get } = await serve(fastPath);
    const kept = await get('/v2/pricing', { headers: { 'x-request-id': 'trace-42.a_b' } });
    expect(kept.headers.get('x-request-id')).toBe('trace-42.a_b');
    const replaced = await get('/v2/pricing', { headers: { 'x-request-id': 'no spaces <here>' } });
    expect(replaced.headers.get('x-request-id')).toMatch(/^req_/);
  });

  it('hands the last path segment to a route with a parameter', async () => {
    const fastPath = new FastPath();
    const seen: string[] = [];
    fastPath.add(endpoint('GET', '/v2/jobs/{id}'), (_req, id) => {
      seen.push(id);
      return id === 'job_known' ? json('{"id":"job_known"}') : undefined;
    });
    const { get, recorded } = await serve(fastPath);
    expect(await (await get('/v2/jobs/job_known')).text()).toBe('{"id":"job_known"}');
    expect(recorded[0]).toMatchObject({ path: '/v2/jobs/job_known', route: '/v2/jobs/:id' });
    // Not known to the handler: the framework answers.
    expect((await get('/v2/jobs/job_other')).status).toBe(299);
    expect(seen).toEqual(['job_known', 'job_other']);
  });

  it('leaves to the framework what it does not take as it is: other methods, queries, escapes, deeper paths', async () => {
    const fastPath = new FastPath();
    const seen: string[] = [];
    fastPath.add(endpoint('GET', '/v2/jobs/{id}'), (_req, id) => {
      seen.push(id);
      return json('{}');
    });
    fastPath.add(endpoint('GET', '/v2/pricing'), () => json('{}'));
    const { get, recorded } = await serve(fastPath);
    const framework = [
      get('/v2/jobs/job_1', { method: 'HEAD' }),
      get('/v2/jobs/job_1', { method: 'DELETE' }),
      get('/v2/pricing?x=1'),
      get('/v2/jobs/job_1?fields=id'),
      get('/v2/jobs/job%5F1'),
      get('/v2/jobs/job_1/status'),
      get('/v2/jobs/'),
      get('/v2/pricing/'),
      get('/v2/jobs/job.1'),
    ];
    for (const response of await Promise.all(framework)) expect(response.status).toBe(299);
    expect(seen).toEqual([]);
    expect(recorded).toEqual([]);
  });

  it('leaves the request to the framework when a handler throws', async () => {
    const fastPath = new FastPath();
    fastPath.add(endpoint('GET', '/v2/pricing'), () => {
      throw new Error('a bug in a handler');
    });
    const { get } = await serve(fastPath);
    expect((await get('/v2/pricing')).status).toBe(299);
  });

  it('sends no body and no length for a 304', async () => {
    const fastPath = new FastPath();
    fastPath.add(endpoint('GET', '/v2/pricing'), () => ({
      status: 304,
      headers: { etag: '"a"' },
      body: null,
    }));
    const { get } = await serve(fastPath);
    const response = await get('/v2/pricing');
    expect(response.status).toBe(304);
    expect(response.headers.get('etag')).toBe('"a"');
    expect(response.headers.get('content-length')).toBeNull();
  });

  it('serves GETs of fixed paths or paths ending in one parameter only', () => {
    const fastPath = new FastPath();
    expect(() => fastPath.add(endpoint('POST', '/v2/jobs'), () => undefined)).toThrow(/GETs only/);
    expect(() => fastPath.add(endpoint('GET', '/v2/jobs/{id}/status'), () => undefined)).toThrow(
      /cannot serve/,
    );
  });
});
