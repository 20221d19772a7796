import { gunzipSync } from 'node:zlib';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { AppEnv } from './env.ts';
import { respondJsonNegotiated } from './respond.ts';

const payload = { data: Array.from({ length: 100 }, (_, i) => ({ id: `job_${i}`, status: 'completed' })) };
const text = JSON.stringify(payload);

const app = new Hono<AppEnv>();
app.use(async (c, next) => {
  c.set('requestId', 'req_test');
  await next();
});
app.get('/list', (c) => respondJsonNegotiated(c, 200, payload));
app.get('/small', (c) => respondJsonNegotiated(c, 200, { ok: true }));
app.get('/secret', (c) => respondJsonNegotiated(c, 200, payload, { 'cache-control': 'no-store' }));
app.get('/empty', (c) => respondJsonNegotiated(c, 204, null));

const get = (path: string, acceptEncoding = 'gzip', method = 'GET') =>
  app.request(path, { method, headers: { 'accept-encoding': acceptEncoding } });

describe('JSON answers made per request', () => {
  it('are compressed when asked and large enough, with Vary', async () => {
    const response = await get('/list');
    expect(response.headers.get('content-encoding')).toBe('gzip');
    expect(response.headers.get('vary')).toBe('accept-encoding');
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(gunzipSync(Buffer.from(await response.arrayBuffer())).toString()).toBe(text);
  });

  it('stay plain when not asked, when q=0, and below the threshold', async () => {
    for (const [path, accept] of [
      ['/list', 'identity'],
      ['/list', 'gzip;q=0, br;q=0'],
      ['/small', 'gzip, br'],
    ] as const) {
      const response = await get(path, accept);
      expect(response.headers.get('content-encoding'), `${path} ${accept}`).toBeNull();
      expect(await response.json()).toEqual(path === '/small' ? { ok: true } : payload);
    }
  });

  it('never compress an answer that carries a secret (no-store)', async () => {
    const response = await get('/secret', 'gzip, br');
    expect(response.headers.get('content-encoding')).toBeNull();
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.text()).toBe(text);
  });

  it('answer HEAD and 204 without a body', async () => {
    const head = await get('/list', 'gzip', 'HEAD');
    expect(head.headers.get('content-encoding')).toBeNull();
    expect((await head.arrayBuffer()).byteLength).toBe(0);
    const empty = await get('/empty');
    expect(empty.status).toBe(204);
    expect((await empty.arrayBuffer()).byteLength).toBe(0);
  });
});
