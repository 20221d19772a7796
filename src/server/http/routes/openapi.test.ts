import { gunzipSync } from 'node:zlib';
import { compileErrors, validate } from '@readme/openapi-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { endpoints } from '../../../contract/endpoints.ts';
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from '../../testing/test-app.ts';
import { allRoutes } from '../routes.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type Doc = {
  openapi: string;
  servers: Array<{ url: string }>;
  paths: Record<string, Record<string, { operationId: string }>>;
};

describe('served OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const response = await t.request('/v2/openapi.json');
    expect(response.status).toBe(200);
    const doc = (await response.json()) as Doc;
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers[0]!.url).toBe(TEST_PUBLIC_URL);
    const result = await validate(structuredClone(doc) as never);
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
  });

  it('lists exactly the endpoints this server answers (but its internal helpers), and each of them answers', async () => {
    const doc = (await (await t.request('/v2/openapi.json')).json()) as Doc;
    const listed = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`),
    );
    const mounted = allRoutes(t.services)
      .filter((r) => !r.endpoint.internal)
      .map((r) => `${r.endpoint.method} ${r.endpoint.path}`);
    expect(listed.filter((line) => line.includes('/api/dev/'))).toEqual([]);
    expect(listed.sort()).toEqual(mounted.sort());
    for (const line of listed) {
      const [method, path] = line.split(' ') as [string, string];
      const response = await t.request(path.replace(/\{\w+\}/g, 'image'), {
        method,
        headers: { 'content-type': 'application/json' },
        body: method === 'GET' ? undefined : '{}',
      });
      // Whatever the answer (401, 422, 404 for an unknown tool...), it comes from the route, not the router.
      expect(response.status, line).not.toBe(405);
      const text = await response.text();
      expect(text, line).not.toContain('No route for');
    }
  });

  it('answers every endpoint of the contract, each of which the SDK can call', () => {
    const mounted = new Set(allRoutes(t.services).map((r) => r.endpoint.operationId));
    expect(Object.keys(endpoints).filter((name) => !mounted.has(name))).toEqual([]);
  });

  it('serves the same document as YAML', async () => {
    const json = await (await t.request('/v2/openapi.json')).json();
    const response = await t.request('/v2/openapi.yaml');
    expect(response.headers.get('content-type')).toContain('application/yaml');
    expect(parseYaml(await response.text())).toEqual(json);
  });

  it.each(['/v2/openapi.json', '/v2/openapi.yaml'])(
    'tags %s for revalidation (304) and compresses it when asked',
    async (path) => {
      const plain = await t.request(path);
      const etag = plain.headers.get('etag');
      expect(etag).toMatch(/^"[^"]+"$/);
      expect(plain.headers.get('content-encoding')).toBeNull();
      const again = await t.request(path, { headers: { 'if-none-match': etag! } });
      expect(again.status).toBe(304);
      expect(await again.text()).toBe('');
      const gzipped = await t.request(path, { headers: { 'accept-encoding': 'gzip' } });
      expect(gzipped.headers.get('content-encoding')).toBe('gzip');
      expect(gzipped.headers.get('vary')).toContain('accept-encoding');
      const bytes = gunzipSync(Buffer.from(await gzipped.arrayBuffer())).toString();
      expect(bytes).toBe(await plain.text());
    },
  );
});
