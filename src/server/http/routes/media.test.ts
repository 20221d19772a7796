import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { serve } from '@hono/node-server';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorEnvelope } from '../../../contract/errors.ts';
import type { FileRecord } from '../../../contract/files.ts';
import { insertTeam, solidPng } from '../../domain/files/file-test-support.ts';
import { storeFile } from '../../domain/files/files.ts';
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from '../../testing/test-app.ts';
import { contentDisposition, mountMedia, parseRange } from './media.ts';

let t: TestApp;
let dataDir: string;
let image: FileRecord;
let imageBytes: Buffer;
let text: FileRecord;
const textBytes = Buffer.from('0123456789abcdefghijklmnopqrstuvwxyz');

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mc-media-'));
  t = await createTestApp({ DATA_DIR: dataDir });
  // Until createApp mounts it; mounting is idempotent, so this stays harmless afterwards.
  mountMedia(t.app, t.services);
  const teamId = await insertTeam(t.db);
  imageBytes = await solidPng(640, 480);
  image = await storeFile(t.services, {
    teamId,
    name: 'Été "best" shot.png',
    mediaType: 'image/png',
    data: imageBytes,
    origin: 'upload',
  });
  text = await storeFile(t.services, {
    teamId,
    name: 'alphabet.txt',
    mediaType: 'text/plain',
    data: textBytes,
    origin: 'upload',
  });
});
afterAll(async () => {
  await t.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

/** A request to a public media URL, as the browser would send it: no credentials. */
const get = (url: string, headers: Record<string, string> = {}, method = 'GET') => {
  expect(url.startsWith(TEST_PUBLIC_URL)).toBe(true);
  return t.request(url.slice(TEST_PUBLIC_URL.length), { method, headers });
};

async function expectNotFound(response: Response) {
  expect(response.status).toBe(404);
  expect(response.headers.get('content-type')).toBe('application/json');
  const body = ErrorEnvelope.parse(await response.json());
  expect(body.error.code).toBe('not_found');
  expect(body.error.message).not.toContain('No route for');
}

describe('GET /media/{file_id}/{name}', () => {
  it('serves the exact bytes with the file headers, without authentication', async () => {
    const response = await get(image.url);
    expect(response.status).toBe(200);
    expect(Buffer.from(await response.arrayBuffer()).equals(imageBytes)).toBe(true);
    const h = response.headers;
    expect(h.get('content-type')).toBe('image/png');
    expect(h.get('content-length')).toBe(String(imageBytes.length));
    expect(h.get('accept-ranges')).toBe('bytes');
    expect(h.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(h.get('etag')).toBe(`"${image.hash!.slice('sha256:'.length)}"`);
    expect(h.get('x-content-type-options')).toBe('nosniff');
    expect(h.get('content-security-policy')).toBe('sandbox');
    expect(h.get('x-request-id')).toBeTruthy();
    expect(h.get('content-disposition')).toBe(
      `inline; filename="_t_ _best_ shot.png"; filename*=UTF-8''%C3%89t%C3%A9%20%22best%22%20shot.png`,
    );
  });

  it('answers HEAD with the headers and no body', async () => {
    const response = await get(image.url, {}, 'HEAD');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-length')).toBe(String(imageBytes.length));
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(response.headers.get('etag')).toBeTruthy();
    expect((await response.arrayBuffer()).byteLength).toBe(0);
  });

  it('serves the file whatever the name segment says (the id is what counts)', async () => {
    const response = await get(`${TEST_PUBLIC_URL}/media/${text.id}/renamed-since.txt`);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(textBytes.toString());
  });

  it('answers Range 0-9 with 206 and 10 bytes', async () => {
    const response = await get(text.url, { range: 'bytes=0-9' });
    expect(response.status).toBe(206);
    expect(response.headers.get('content-range')).toBe(`bytes 0-9/${textBytes.length}`);
    expect(response.headers.get('content-length')).toBe('10');
    const body = Buffer.from(await response.arrayBuffer());
    expect(body.length).toBe(10);
    expect(body.toString()).toBe('0123456789');
  });

  it('answers a range of the image with its exact bytes', async () => {
    const response = await get(image.url, { range: 'bytes=100-199' });
    expect(response.status).toBe(206);
    expect(Buffer.from(await response.arrayBuffer()).equals(imageBytes.subarray(100, 200))).toBe(true);
  });

  it('answers suffix and open-ended ranges', async () => {
    const suffix = await get(text.url, { range: 'bytes=-5' });
    expect(suffix.status).toBe(206);
    expect(suffix.headers.get('content-range')).toBe('bytes 31-35/36');
    expect(await suffix.text()).toBe('vwxyz');

    const open = await get(text.url, { range: 'bytes=30-' });
    expect(open.status).toBe(206);
    expect(open.headers.get('content-range')).toBe('bytes 30-35/36');
    expect(await open.text()).toBe('uvwxyz');

    const beyond = await get(text.url, { range: 'bytes=34-1000' });
    expect(beyond.status).toBe(206);
    expect(beyond.headers.get('content-range')).toBe('bytes 34-35/36');
    expect(await beyond.text()).toBe('yz');

    const wholeSuffix = await get(text.url, { range: 'bytes=-100' });
    expect(wholeSuffix.headers.get('content-range')).toBe('bytes 0-35/36');
  });

  it('answers an unsatisfiable range with 416 and Content-Range bytes */size', async () => {
    for (const range of ['bytes=36-', 'bytes=100-200', 'bytes=-0']) {
      const response = await get(text.url, { range });
      expect(response.status, range).toBe(416);
      expect(response.headers.get('content-range')).toBe('bytes */36');
      expect(ErrorEnvelope.parse(await response.json()).error.code).toBe('invalid_request');
    }
  });

  it('sends everything for ranges it does not serve (several ranges, other units, nonsense)', async () => {
    for (const range of ['bytes=0-1,5-6', 'items=0-1', 'bytes=5-2', 'bytes=abc']) {
      const response = await get(text.url, { range });
      expect(response.status, range).toBe(200);
      expect(await response.text()).toBe(textBytes.toString());
    }
  });

  it('revalidates with If-None-Match (304) and honours If-Range', async () => {
    const etag = (await get(text.url, {}, 'HEAD')).headers.get('etag')!;
    const notModified = await get(text.url, { 'if-none-match': etag });
    expect(notModified.status).toBe(304);
    expect(notModified.headers.get('etag')).toBe(etag);
    expect(await notModified.text()).toBe('');
    expect((await get(text.url, { 'if-none-match': '"other"' })).status).toBe(200);

    const sameVersion = await get(text.url, { range: 'bytes=0-1', 'if-range': etag });
    expect(sameVersion.status).toBe(206);
    const otherVersion = await get(text.url, { range: 'bytes=0-1', 'if-range': '"stale"' });
    expect(otherVersion.status).toBe(200);
    expect(await otherVersion.text()).toBe(textBytes.toString());
  });

  it('serves the thumbnail as WebP, with a range too', async () => {
    const response = await get(image.thumbnail_url!);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/webp');
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(response.headers.get('etag')).not.toBe(`"${image.hash!.slice(7)}"`);
    const body = Buffer.from(await response.arrayBuffer());
    const meta = await sharp(body).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 256, 192]);
    const partial = await get(image.thumbnail_url!, { range: 'bytes=0-3' });
    expect(partial.status).toBe(206);
    expect(await partial.text()).toBe('RIFF');
  });

  it('answers 404 with the error envelope for unknown ids, malformed ids and missing thumbnails', async () => {
    await expectNotFound(await get(`${TEST_PUBLIC_URL}/media/file_unknownunknownunknown00/a.png`));
    await expectNotFound(await get(`${TEST_PUBLIC_URL}/media/not-a-file-id/a.png`));
    await expectNotFound(await get(`${TEST_PUBLIC_URL}/media/${text.id}/thumbnail.webp`));
    await expectNotFound(await get(`${TEST_PUBLIC_URL}/media/${text.id}`));
    await expectNotFound(await get(`${TEST_PUBLIC_URL}/media/${text.id}/a/b`));
    await expectNotFound(await get(`${TEST_PUBLIC_URL}/media/`));
  });

  it('refuses path traversal: nothing outside the file row is ever read', async () => {
    const attempts = [
      `/media/${text.id}/..%2F..%2F..%2Fpackage.json`,
      `/media/..%2F..%2Fpackage.json/x`,
      `/media/%2e%2e/%2e%2e/package.json`,
      `/media/file_..%2F..%2Fblobs/x`,
      `/media/${text.id}%2F..%2F..%2Fpackage.json/x`,
    ];
    for (const attempt of attempts) {
      const response = await t.request(attempt);
      const body = await response.text();
      expect(body, attempt).not.toContain('"name": "media-console"');
      if (response.status === 200) expect(body, attempt).toBe(textBytes.toString());
      else expect(response.status, attempt).toBe(404);
    }
  });

  it('answers other methods with 405 and Allow', async () => {
    const response = await t.request(new URL(text.url).pathname, { method: 'DELETE' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD');
    expect(ErrorEnvelope.parse(await response.json()).error.code).toBe('method_not_allowed');
  });
});

describe('over a real socket (@hono/node-server)', () => {
  it('streams a large file whole and in ranges, and sends HEAD headers without a body', async () => {
    const big = randomBytes(3 * 1024 * 1024 + 17);
    const file = await storeFile(t.services, {
      teamId: await insertTeam(t.db),
      name: 'big.bin',
      mediaType: 'application/octet-stream',
      data: big,
      origin: 'upload',
    });
    const server = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const url = `${base}${new URL(file.url).pathname}`;
      const whole = await fetch(url);
      expect(whole.status).toBe(200);
      expect(whole.headers.get('content-length')).toBe(String(big.length));
      expect(Buffer.from(await whole.arrayBuffer()).equals(big)).toBe(true);

      const head = await fetch(url, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(head.headers.get('content-length')).toBe(String(big.length));
      expect(head.headers.get('accept-ranges')).toBe('bytes');

      const tail = await fetch(url, { headers: { range: 'bytes=-1000' } });
      expect(tail.status).toBe(206);
      expect(Buffer.from(await tail.arrayBuffer()).equals(big.subarray(big.length - 1000))).toBe(true);

      const middle = await fetch(url, { headers: { range: 'bytes=1000000-1999999' } });
      expect(middle.status).toBe(206);
      expect(middle.headers.get('content-length')).toBe('1000000');
      expect(Buffer.from(await middle.arrayBuffer()).equals(big.subarray(1_000_000, 2_000_000))).toBe(true);

      const missing = await fetch(`${base}/media/file_unknownunknownunknown00/x`);
      expect(missing.status).toBe(404);
      expect(ErrorEnvelope.parse(await missing.json()).error.code).toBe('not_found');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('parseRange', () => {
  it.each([
    [undefined, 10, 'full'],
    ['bytes=0-9', 10, { start: 0, end: 9 }],
    ['bytes=0-0', 10, { start: 0, end: 0 }],
    ['bytes=9-', 10, { start: 9, end: 9 }],
    ['bytes=-3', 10, { start: 7, end: 9 }],
    ['bytes=0-100', 10, { start: 0, end: 9 }],
    ['bytes=10-', 10, 'unsatisfiable'],
    ['bytes=-0', 10, 'unsatisfiable'],
    ['bytes=0-', 0, 'unsatisfiable'],
    ['bytes=-1', 0, 'unsatisfiable'],
    ['bytes=-', 10, 'full'],
    ['bytes=3-1', 10, 'full'],
    ['bytes=0-1,3-4', 10, 'full'],
  ] as const)('%s of %i bytes → %j', (header, size, expected) => {
    expect(parseRange(header, size)).toEqual(expected);
  });
});

describe('contentDisposition', () => {
  it('quotes safely: no quotes, backslashes or line breaks escape the header', () => {
    const value = contentDisposition('a"b\\c\r\nx-evil: 1;.png');
    expect(value).not.toMatch(/[\r\n]/);
    expect(value).toBe(
      `inline; filename="a_b_c__x-evil: 1;.png"; filename*=UTF-8''a%22b%5Cc%0D%0Ax-evil%3A%201%3B.png`,
    );
  });
});
