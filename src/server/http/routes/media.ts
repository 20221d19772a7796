import { Readable } from 'node:stream';
import type { Context, Hono } from 'hono';
import { type FileBlob, fileBlob, findFileById } from '../../domain/files/files.ts';
import { ensureThumbnail } from '../../domain/files/make-thumbnail.ts';
import { servedInline } from '../../domain/files/media-type-policy.ts';
import { wantsThumbnail } from '../../domain/files/media-urls.ts';
import type { Services } from '../../services.ts';
import type { ByteRange } from '../../storage/blob-store.ts';
import type { AppEnv } from '../env.ts';
import { requestHeader } from '../request-header.ts';
import { errorBody, respond, respondJson } from '../respond.ts';
import { mountFileArchiveDownload } from './file-archive-download.ts';
import { mountPresignedUpload } from './presigned-upload.ts';

/**
 * What a Range header asks of a blob of `size` bytes: one satisfiable range, `unsatisfiable` (416), or
 * `full` (no header, a syntax we do not read, or several ranges: RFC 9110 lets a server send it all).
 */
export function parseRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | 'full' {
  if (!header) return 'full';
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return 'full';
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return 'full';
  if (first === '') {
    // Suffix range: the last N bytes.
    const length = Number(last);
    if (length === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - length), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Number(last);
  if (last !== '' && end < start) return 'full';
  if (start >= size) return 'unsatisfiable';
  return { start, end: Math.min(end, size - 1) };
}

/** Whether an If-None-Match header (a list, weak tags or `*`) matches our strong ETag. */
function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag || t === `W/${etag}`;
  });
}

/**
 * `inline; filename="<ASCII stand-in>"; filename*=UTF-8''<the name, percent-encoded>` (RFC 6266), or
 * `attachment; …` for a type a browser would run script in.
 */
export function contentDisposition(name: string, disposition: 'inline' | 'attachment' = 'inline'): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${disposition}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/**
 * A remote store serves the bytes itself (Range included): the stable media URL redirects to its public
 * or presigned URL, which names and types the download as we would. The redirect is cached no longer than
 * that URL lives.
 */
async function redirectToStore(c: Context<AppEnv>, s: Services, blob: FileBlob) {
  const inline = servedInline(blob.contentType);
  const target = await s.blobs.downloadUrl!(blob.key, {
    contentType: blob.contentType,
    contentDisposition: contentDisposition(blob.filename, inline ? 'inline' : 'attachment'),
  });
  return respond(c, 302, null, {
    location: target.url,
    'cache-control': `private, max-age=${target.maxAgeSeconds}`,
    'access-control-allow-origin': '*',
    'cross-origin-resource-policy': 'cross-origin',
  });
}

const mounted = new WeakSet<object>();

/**
 * The public media route: `GET|HEAD /media/{file_id}/{name}` (the file) and `/media/{file_id}/thumbnail.webp`
 * (its thumbnail). Not part of the v2 interface, so it is no contract endpoint and not in the OpenAPI
 * document: it is where the interface's "stable public URLs" point. No authentication: the unguessable
 * file id is the capability. Bytes never change under an id, so answers are cacheable forever.
 * Mounting twice on one app does nothing the second time.
 */
export function mountMedia(app: Hono<AppEnv>, s: Services): void {
  if (mounted.has(app)) return;
  mounted.add(app);

  const notFound = (c: Context<AppEnv>, message = 'No such file.') =>
    respondJson(c, 404, errorBody('not_found', message));

  // Hono answers HEAD with this GET handler (and drops the body); respond() sends no body for HEAD too.
  app.get('/media/:id/:name', async (c) => {
    const file = await findFileById(s.db, c.req.param('id'));
    if (!file) return notFound(c);
    const thumbnail = wantsThumbnail(c.req.param('name'), c.req.query('original') !== undefined);
    // Thumbnails are made on their first request and kept.
    const blob = fileBlob(thumbnail ? await ensureThumbnail(s, file) : file, thumbnail);
    if (!blob) return notFound(c, 'This file has no thumbnail.');
    if (s.blobs.downloadUrl) return redirectToStore(c, s, blob);
    const stat = await s.blobs.stat(blob.key);
    if (!stat) {
      s.log.error('media blob missing', { file_id: file.id, key: blob.key });
      return notFound(c);
    }
    const size = stat.size;
    const cacheHeaders = {
      etag: blob.etag,
      'cache-control': 'public, max-age=31536000, immutable',
      'access-control-allow-origin': '*',
      'cross-origin-resource-policy': 'cross-origin',
    };
    if (etagMatches(requestHeader(c, 'if-none-match'), blob.etag)) return respond(c, 304, null, cacheHeaders);

    const headers: Record<string, string> = {
      ...cacheHeaders,
      'content-type': blob.contentType,
      'accept-ranges': 'bytes',
      // Files are served from the console's own origin: an HTML or SVG file must not run script there. It
      // is downloaded rather than shown, and the sandbox holds should a browser show it anyway.
      'content-disposition': contentDisposition(
        blob.filename,
        servedInline(blob.contentType) ? 'inline' : 'attachment',
      ),
      'content-security-policy': 'sandbox',
    };
    // If-Range with another validator means "the whole thing": our copy is not the one the client has.
    const ifRange = requestHeader(c, 'if-range');
    const range =
      ifRange && ifRange.trim() !== blob.etag ? 'full' : parseRange(requestHeader(c, 'range'), size);
    if (range === 'unsatisfiable') {
      return respondJson(
        c,
        416,
        errorBody('invalid_request', `The range cannot be satisfied: the file has ${size} bytes.`),
        { 'accept-ranges': 'bytes', 'content-range': `bytes */${size}` },
      );
    }
    const partial = range !== 'full';
    if (partial) headers['content-range'] = `bytes ${range.start}-${range.end}/${size}`;
    headers['content-length'] = String(partial ? range.end - range.start + 1 : size);
    const status = partial ? 206 : 200;
    if (c.req.method === 'HEAD' || size === 0) return respond(c, status, null, headers);
    const stream = await s.blobs.createReadStream(blob.key, partial ? range : undefined);
    return respond(c, status, Readable.toWeb(stream) as ReadableStream, headers);
  });

  // Any other method on a media URL, and any other path under /media/, is answered here, not by the console.
  app.on(['POST', 'PUT', 'PATCH', 'DELETE'], '/media/:id/:name', (c) =>
    respondJson(
      c,
      405,
      errorBody('method_not_allowed', `${c.req.method} is not allowed here. Allowed: GET, HEAD.`),
      {
        allow: 'GET, HEAD',
      },
    ),
  );
  app.all('/media/*', (c) => notFound(c));

  mountPresignedUpload(app, s);
  mountFileArchiveDownload(app, s);
}
