import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app.ts';

let t: TestApp;
let dir: string;
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mc-static-'));
  await fs.mkdir(path.join(dir, 'assets'));
  await fs.writeFile(path.join(dir, 'index.html'), '<!doctype html><title>console</title>');
  await fs.writeFile(path.join(dir, 'assets', 'main-abc123.js'), 'console.log(1)');
  await fs.writeFile(path.join(dir, 'favicon.svg'), '<svg/>');
  await fs.writeFile(path.join(os.tmpdir(), 'outside-secret.txt'), 'TOP-SECRET-CONTENT');
  t = await createTestApp({ STATIC_DIR: dir });
});
afterAll(async () => {
  await t.close();
  await fs.rm(dir, { recursive: true, force: true });
});

describe('serving the console', () => {
  it('serves index.html at / and for client-side routes, never cached', async () => {
    for (const route of ['/', '/jobs', '/settings/deep/link', '/index.html']) {
      const response = await t.request(route);
      expect(response.status, route).toBe(200);
      expect(response.headers.get('content-type')).toContain('text/html');
      expect(response.headers.get('cache-control')).toBe('no-cache');
      expect(response.headers.get('x-request-id')).toMatch(/^req_/);
      expect(await response.text()).toContain('<title>console</title>');
    }
  });

  it('serves hashed assets cached for a year, and other files briefly', async () => {
    const asset = await t.request('/assets/main-abc123.js');
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toContain('text/javascript');
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const icon = await t.request('/favicon.svg');
    expect(icon.headers.get('content-type')).toBe('image/svg+xml');
    expect(icon.headers.get('cache-control')).toBe('public, max-age=300');
  });

  it('compresses text files with the best encoding the client takes, and says it varies', async () => {
    const source = await fs.readFile(path.join(dir, 'assets', 'main-abc123.js'));
    const br = await t.request('/assets/main-abc123.js', {
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('vary')).toBe('accept-encoding');
    expect(zlib.brotliDecompressSync(Buffer.from(await br.arrayBuffer())).equals(source)).toBe(true);

    const gz = await t.request('/assets/main-abc123.js', { headers: { 'accept-encoding': 'gzip, br;q=0' } });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(zlib.gunzipSync(Buffer.from(await gz.arrayBuffer())).equals(source)).toBe(true);

    const plain = await t.request('/assets/main-abc123.js', { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(Buffer.from(await plain.arrayBuffer()).equals(source)).toBe(true);
  });

  it("sends the build's compressed siblings when they are at least as new as the file, else compresses itself", async () => {
    const assets = path.join(dir, 'assets');
    const source = 'console.log("the file itself");';
    // Siblings with other content than the file, so the answer tells which was sent.
    const fromBuild = 'console.log("the build compressed this");';
    for (const name of ['fresh-1.js', 'stale-1.js']) {
      await fs.writeFile(path.join(assets, name), source);
      await fs.writeFile(path.join(assets, `${name}.br`), zlib.brotliCompressSync(fromBuild));
      await fs.writeFile(path.join(assets, `${name}.gz`), zlib.gzipSync(fromBuild));
    }
    // A sibling older than its file was made from an earlier version of it.
    const past = new Date(Date.now() - 60_000);
    await fs.utimes(path.join(assets, 'stale-1.js.br'), past, past);
    await fs.utimes(path.join(assets, 'stale-1.js.gz'), past, past);

    const br = await t.request('/assets/fresh-1.js', { headers: { 'accept-encoding': 'br' } });
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(zlib.brotliDecompressSync(Buffer.from(await br.arrayBuffer())).toString()).toBe(fromBuild);
    const gz = await t.request('/assets/fresh-1.js', { headers: { 'accept-encoding': 'gzip' } });
    expect(zlib.gunzipSync(Buffer.from(await gz.arrayBuffer())).toString()).toBe(fromBuild);

    const stale = await t.request('/assets/stale-1.js', { headers: { 'accept-encoding': 'br' } });
    expect(stale.headers.get('content-encoding')).toBe('br');
    expect(zlib.brotliDecompressSync(Buffer.from(await stale.arrayBuffer())).toString()).toBe(source);
  });

  it('answers a missing asset with 404, not the app shell', async () => {
    expect((await t.request('/assets/gone-999.js')).status).toBe(404);
    expect((await t.request('/robots.txt')).status).toBe(404);
  });

  it("answers a build's compressed sibling asked for by its own name with 404; a .gz of its own is a file", async () => {
    const assets = path.join(dir, 'assets');
    await fs.writeFile(path.join(assets, 'sibling-1.js'), 'console.log(2)');
    await fs.writeFile(path.join(assets, 'sibling-1.js.br'), zlib.brotliCompressSync('console.log(2)'));
    await fs.writeFile(path.join(assets, 'sibling-1.js.gz'), zlib.gzipSync('console.log(2)'));
    await fs.writeFile(path.join(assets, 'archive-1.tar.gz'), zlib.gzipSync('an archive'));
    expect((await t.request('/assets/sibling-1.js.br')).status).toBe(404);
    expect((await t.request('/assets/sibling-1.js.gz')).status).toBe(404);
    expect((await t.request('/assets/sibling-1.js')).status).toBe(200);
    const archive = await t.request('/assets/archive-1.tar.gz');
    expect(archive.status).toBe(200);
    expect(archive.headers.get('content-encoding')).toBeNull();
  });

  it('never serves files outside its folder', async () => {
    for (const probe of [
      '/../outside-secret.txt',
      '/%2e%2e/outside-secret.txt',
      '/assets/%2e%2e/%2e%2e/outside-secret.txt',
    ]) {
      const response = await t.request(probe);
      expect(await response.text(), probe).not.toContain('TOP-SECRET-CONTENT');
    }
  });

  it('keeps API paths for the API', async () => {
    const response = await t.request('/v2/not-a-route');
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toContain('application/json');
  });
});
