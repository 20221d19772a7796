import { Readable } from 'node:stream';
import type { Hono } from 'hono';
import { ARCHIVE_PATH, openFileArchive, zipFiles } from '../../domain/files/file-archive.ts';
import type { Services } from '../../services.ts';
import type { AppEnv } from '../env.ts';
import { respond } from '../respond.ts';
import { contentDisposition } from './media.ts';

/**
 * `GET /archives/<token>`: the zip a `POST /v2/files/archive` link names, streamed from storage (no bearer:
 * the signed link is the credential, and the files are checked again as it is opened). `no-store`: what
 * it holds depends on who may see what now.
 */
export function mountFileArchiveDownload(app: Hono<AppEnv>, s: Services): void {
  app.get(`${ARCHIVE_PATH}:token`, async (c) => {
    const { name, files } = await openFileArchive(s, c.req.param('token'));
    const { stream, size } = await zipFiles(s, files);
    return respond(c, 200, Readable.toWeb(stream) as ReadableStream, {
      'content-type': 'application/zip',
      'content-disposition': contentDisposition(name, 'attachment'),
      'cache-control': 'no-store',
      ...(size === null ? {} : { 'content-length': String(size) }),
    });
  });
}
