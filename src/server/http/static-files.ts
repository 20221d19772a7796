import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Context } from 'hono';
import { CONSOLE_HEADERS } from './console-headers.ts';
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

const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.json', '.svg', '.txt', '.webmanifest']);
const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

type Encoding = 'br' | 'gzip';

/** The best encoding the client takes, or null (`identity`, or an explicit `;q=0`). */
function encodingFor(acceptEncoding: string | undefined): Encoding | null {
  const accepted = new Set(
    (acceptEncoding ?? '')
      .split(',')
      .map((part) => part.trim().toLowerCase())
      .filter((part) => !/;\s*q=0(\.0+)?$/.test(part))
      .map((part) => part.split(';')[0]),
  );
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return null;
}

/** Paths the API owns: never answered with the console's index.html. */
export const API_PREFIXES = ['/v1/', '/v2/', '/api/', '/mcp', '/.well-known/'];

/**
 * Serves the built console: files under `dir` as they are (hashed assets cached for a year), and
 * index.html, never cached, for any other GET so client-side routes survive a reload.
 */
export function createStaticHandler(dir: string) {
  const root = path.resolve(dir);

  async function file(relative: string): Promise<{ file: string; size: number; mtimeMs: number } | null> {
    const resolved = path.resolve(root, `.${relative}`);
    if (resolved !== root && !resolved.startsWith(`${root}${path.sep}`)) return null;
    const stat = await fs.stat(resolved).catch(() => null);
    return stat?.isFile() ? { file: resolved, size: stat.size, mtimeMs: stat.mtimeMs } : null;
  }

  // The console's text files are compressed once per version (brotli or gzip) and kept: the bundle is
  // a few hundred kilobytes of JavaScript that compresses to a third, on every first visit. A build
  // writes compressed siblings (`app.js.br`, `app.js.gz`: scripts/precompress-assets.ts, brotli at
  // quality 11); those are read instead, unless older than the file. Without them (a build from
  // elsewhere) the file is compressed here at brotli 9, which keeps that first request fast.
  const compressed = new Map<string, Promise<Uint8Array<ArrayBuffer>>>();
  function compressedBytes(
    found: { file: string; mtimeMs: number },
    encoding: Encoding,
  ): Promise<Uint8Array<ArrayBuffer>> {
    const key = `${encoding}:${found.file}:${found.mtimeMs}`;
    let bytes = compressed.get(key);
    if (!bytes) {
      bytes = compress(found, encoding);
      bytes.catch(() => compressed.delete(key));
      compressed.set(key, bytes);
    }
    return bytes;
  }

  /** The build's compressed sibling when it is fresh, else the file compressed here. */
  async function compress(found: { file: string; mtimeMs: number }, encoding: Encoding) {
    const sibling = await precompressed(found, encoding);
    if (sibling) return Uint8Array.from(sibling);
    const raw = await fs.readFile(found.file);
    const packed =
      encoding === 'br'
        ? await brotli(raw, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 9 } })
        : await gzip(raw, { level: 9 });
    return Uint8Array.from(packed);
  }

  /** The build's compressed sibling of a file, when there is one at least as new as the file. */
  async function precompressed(found: { file: string; mtimeMs: number }, encoding: Encoding) {
    const sibling = `${found.file}.${encoding === 'br' ? 'br' : 'gz'}`;
    const stat = await fs.stat(sibling).catch(() => null);
    if (!stat?.isFile() || stat.mtimeMs < found.mtimeMs) return null;
    return fs.readFile(sibling).catch(() => null);
  }

  async function send(
    c: Context<AppEnv>,
    found: { file: string; size: number; mtimeMs: number },
    cacheControl: string,
  ): Promise<Response> {
    const extension = path.extname(found.file).toLowerCase();
    const type = TYPES[extension] ?? 'application/octet-stream';
    const encoding = COMPRESSIBLE.has(extension) ? encodingFor(c.req.header('accept-encoding')) : null;
    if (encoding) {
      const bytes = await compressedBytes(found, encoding);
      return respond(c, 200, c.req.method === 'HEAD' ? null : bytes, {
        ...CONSOLE_HEADERS,
        'content-type': type,
        'content-length': String(bytes.length),
        'content-encoding': encoding,
        vary: 'accept-encoding',
        'cache-control': cacheControl,
      });
    }
    const headers: Record<string, string> = {
      ...CONSOLE_HEADERS,
      'content-type': type,
      'content-length': String(found.size),
      'cache-control': cacheControl,
    };
    if (COMPRESSIBLE.has(extension)) headers.vary = 'accept-encoding';
    const stream =
      c.req.method === 'HEAD' ? null : (Readable.toWeb(createReadStream(found.file)) as ReadableStream);
    return respond(c, 200, stream, headers);
  }

  /**
   * A build's compressed sibling (`app.js.br` beside `app.js`) is a form of `app.js`, sent through it with
   * Content-Encoding: asked for by its own name it would come as bytes of an unknown type, so it is a 404.
   */
  async function isCompressedSibling(pathname: string): Promise<boolean> {
    const plain = pathname.match(/^(.+)\.(?:br|gz)$/)?.[1];
    return plain !== undefined && (await file(plain)) !== null;
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
      if (found && !(await isCompressedSibling(pathname))) {
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
