import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { Context } from 'hono';
import type { AppEnv } from './env.ts';
import { respond } from './respond.ts';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};

/** Paths the API owns: never answered with the console's index.html. */
export const API_PREFIXES = ['/v1/', '/v2/', '/api/'];

/**
 * Serves the built console: files under `dir` as they are (hashed assets cached for a year), and
 * index.html, never cached, for any other GET so client-side routes survive a reload.
 */
export function createStaticHandler(dir: string) {
  const root = path.resolve(dir);

  async function file(relative: string): Promise<{ file: string; size: number } | null> {
    const resolved = path.resolve(root, `.${relative}`);
    if (resolved !== root && !resolved.startsWith(`${root}${path.sep}`)) return null;
    const stat = await fs.stat(resolved).catch(() => null);
    return stat?.isFile() ? { file: resolved, size: stat.size } : null;
  }

  function send(c: Context<AppEnv>, found: { file: string; size: number }, cacheControl: string): Response {
    const type = TYPES[path.extname(found.file).toLowerCase()] ?? 'application/octet-stream';
    const headers = {
      'content-type': type,
      'content-length': String(found.size),
      'cache-control': cacheControl,
    };
    const stream =
      c.req.method === 'HEAD' ? null : (Readable.toWeb(createReadStream(found.file)) as ReadableStream);
    return respond(c, 200, stream, headers);
  }

  return async (c: Context<AppEnv>): Promise<Response | null> => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return null;
    let pathname: string;
    try {
      pathname = decodeURIComponent(new URL(c.req.url).pathname);
    } catch {
      return null;
    }
    if (pathname.includes('\0')) return null;
    if (pathname !== '/' && pathname !== '/index.html') {
      const found = await file(pathname);
      if (found) {
        const immutable = pathname.startsWith('/assets/');
        return send(c, found, immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=300');
      }
      // A missing asset is a 404, not the app shell (a stale tab would otherwise parse HTML as JS).
      if (pathname.startsWith('/assets/') || path.extname(pathname) !== '') return null;
    }
    const index = await file('/index.html');
    return index ? send(c, index, 'no-cache') : null;
  };
}
