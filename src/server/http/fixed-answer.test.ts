import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { AppEnv } from './env.ts';
import { FixedAnswer } from './fixed-answer.ts';

const large = JSON.stringify({
  data: Array.from({ length: 200 }, (_, i) => ({ model: `model-${i}`, cents: i })),
});
const small = JSON.stringify({ data: [] });

function appFor(body: string) {
  const answer = new FixedAnswer(body, { 'content-type': 'application/json', 'cache-control': 'no-cache' });
  const app = new Hono<AppEnv>();
  app.use(async (c, next) => {
    c.set('requestId', 'req_test');
    await next();
  });
  app.get('/doc', (c) => answer.respond(c));
  const get = (headers: Record<string, string> = {}, method = 'GET') =>
    app.request('/doc', { method, headers });
  return { answer, get };
}

const bytes = async (response: Response) => Buffer.from(await response.arrayBuffer());

describe('a fixed answer: compression', () => {
  it('answers gzip or br as asked, each decoding to the same JSON, with Vary', async () => {
    const { get } = appFor(large);
    const gz = await get({ 'accept-encoding': 'gzip' });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(gz.headers.get('vary')).toBe('accept-encoding');
    const gzBytes = await bytes(gz);
    expect(gzBytes.length).toBeLessThan(large.length / 4);
    expect(gunzipSync(gzBytes).toString()).toBe(large);

    const br = await get({ 'accept-encoding': 'gzip, br' });
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(brotliDecompressSync(await bytes(br)).toString()).toBe(large);
    // Each coding is its own representation, with its own strong tag.
    expect(new Set([gz.headers.get('etag'), br.headers.get('etag')]).size).toBe(2);
  });

  it('answers identity without Accept-Encoding, for identity, and for q=0', async () => {
    const { get } = appFor(large);
    for (const accept of [undefined, 'identity', 'gzip;q=0, br;q=0']) {
      const response = await get(accept ? { 'accept-encoding': accept } : {});
      expect(response.headers.get('content-encoding'), accept).toBeNull();
      expect(response.headers.get('vary'), accept).toBe('accept-encoding');
      expect((await bytes(response)).toString(), accept).toBe(large);
    }
  });

  it('leaves a body under the threshold as it is, with no Vary', async () => {
    const { get } = appFor(small);
    const response = await get({ 'accept-encoding': 'gzip, br' });
    expect(response.headers.get('content-encoding')).toBeNull();
    expect(response.headers.get('vary')).toBeNull();
    expect(await response.text()).toBe(small);
  });

  it('answers HEAD with headers only, uncompressed', async () => {
    const { get } = appFor(large);
    const response = await get({ 'accept-encoding': 'gzip' }, 'HEAD');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-encoding')).toBeNull();
    expect(response.headers.get('etag')).toMatch(/^"/);
    expect((await bytes(response)).length).toBe(0);
  });
});

describe('a fixed answer: ETag and 304', () => {
  it('answers 304 with no body for its tag, the weak form, a compressed form, or *', async () => {
    const { answer, get } = appFor(large);
    const gzTag = (await get({ 'accept-encoding': 'gzip' })).headers.get('etag')!;
    for (const match of [answer.etag, `W/${answer.etag}`, `"nope", ${answer.etag}`, gzTag, '*']) {
      const response = await get({ 'if-none-match': match, 'accept-encoding': 'gzip' });
      expect(response.status, match).toBe(304);
      expect(response.headers.get('etag'), match).toBe(gzTag);
      expect(response.headers.get('vary'), match).toBe('accept-encoding');
      expect(response.headers.get('content-encoding'), match).toBeNull();
      expect((await bytes(response)).length, match).toBe(0);
    }
  });

  it('answers 200 with the body for another tag', async () => {
    const { answer, get } = appFor(large);
    const response = await get({ 'if-none-match': '"something-else"' });
    expect(response.status).toBe(200);
    expect(response.headers.get('etag')).toBe(answer.etag);
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(response.headers.get('x-request-id')).toBe('req_test');
    expect(await response.text()).toBe(large);
  });
});
