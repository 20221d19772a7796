import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app.ts';

let t: TestApp;
let dir: string;
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mc-console-headers-'));
  await fs.mkdir(path.join(dir, 'assets'));
  await fs.writeFile(path.join(dir, 'index.html'), '<!doctype html><title>console</title>');
  await fs.writeFile(path.join(dir, 'assets', 'main-abc123.js'), 'console.log(1)');
  t = await createTestApp({ STATIC_DIR: dir });
});
afterAll(async () => {
  await t.close();
  await fs.rm(dir, { recursive: true, force: true });
});

/** The policy as a map of directive → sources. */
function directives(csp: string | null): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const part of (csp ?? '').split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) map.set(name, sources);
  }
  return map;
}

describe("the console's security headers", () => {
  it('come with index.html on every client route, compressed or not: scripts from self only, never framed', async () => {
    for (const [route, encoding] of [
      ['/', 'br'],
      ['/jobs', 'identity'],
      ['/index.html', 'gzip'],
    ] as const) {
      const response = await t.request(route, { headers: { 'accept-encoding': encoding } });
      expect(response.status, route).toBe(200);
      const h = response.headers;
      const csp = directives(h.get('content-security-policy'));
      expect(csp.get('script-src'), route).toEqual(["'self'"]);
      expect(csp.get('worker-src')).toEqual(["'self'"]);
      expect(csp.get('default-src')).toEqual(["'self'"]);
      expect(csp.get('object-src')).toEqual(["'none'"]);
      expect(csp.get('base-uri')).toEqual(["'none'"]);
      expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
      // Previews of picked files and CSV downloads use blob: and data: URLs.
      expect(csp.get('img-src')).toEqual(expect.arrayContaining(["'self'", 'blob:', 'data:']));
      expect(csp.get('media-src')).toEqual(expect.arrayContaining(["'self'", 'blob:']));
      expect(csp.get('connect-src')).toContain("'self'");
      for (const sources of csp.values()) {
        expect(sources).not.toContain("'unsafe-inline'");
        expect(sources).not.toContain("'unsafe-eval'");
        expect(sources).not.toContain('*');
      }
      expect(h.get('x-frame-options')).toBe('DENY');
      expect(h.get('x-content-type-options')).toBe('nosniff');
      expect(h.get('referrer-policy')).toBe('no-referrer');
      expect(h.get('permissions-policy')).toContain('camera=()');
      expect(h.get('cross-origin-opener-policy')).toBe('same-origin');
    }
  });

  it('come with the assets too (a worker script takes its policy from its own answer)', async () => {
    const asset = await t.request('/assets/main-abc123.js');
    expect(directives(asset.headers.get('content-security-policy')).get('script-src')).toEqual(["'self'"]);
  });

  it('hold for the console as written: index.html has no inline script', async () => {
    const html = await fs.readFile(path.resolve('index.html'), 'utf8');
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, body] of scripts) {
      expect(attributes).toMatch(/\bsrc="\//);
      expect(body!.trim()).toBe('');
    }
  });

  it('come with the API reference page, whose renderer may style inline but runs scripts from self only', async () => {
    const response = await t.request('/api-reference');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
    const csp = directives(response.headers.get('content-security-policy'));
    expect(csp.get('script-src')).toEqual(["'self'"]);
    expect(csp.get('style-src')).toEqual(["'self'", "'unsafe-inline'"]);
    expect(csp.get('font-src')).toEqual(["'self'"]);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    const html = await response.text();
    // The renderer and the page's script are files of this server's build; nothing inline, no CDN.
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.map(([, attributes]) => attributes!.match(/src="([^"]+)"/)?.[1])).toEqual([
      '/api-reference/rapidoc-min.js',
      '/api-reference/api-reference.js',
    ]);
    for (const [, , body] of scripts) expect(body!.trim()).toBe('');
    expect(html).toContain('spec-url="/v2/openapi.json"');
    expect(html).toContain('load-fonts="false"');
  });
});
