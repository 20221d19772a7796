import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Readable } from 'node:stream';
import yazl from 'yazl';
import type { TeamRole } from '../../../contract/account.ts';
import { FILE_ARCHIVE_TTL_SECONDS, type FileArchive } from '../../../contract/files.ts';
import type { Queryable } from '../../db/pool.ts';
import { AppError } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { type FolderViewer, inVisibleFolderSql, viewerParams } from '../folders/folder-visibility.ts';
import { type FileRow, fromRow, type StoredFile } from './files.ts';

/*
 * Many files as one zip, streamed by the server (yazl): the bytes go from storage to the browser one file
 * after another, whatever their size, and the browser saves them with its own download manager. A zip
 * built in the browser would hold every file in memory first (a Blob), which a few videos make too big.
 *
 * `POST /v2/files/archive` checks each file against the caller's team and its folder's visibility and
 * answers a signed link (`/archives/<token>`): a plain link the browser can open without a bearer, like a
 * presigned upload URL. The token carries the team, the person, the file ids and an expiry; opening it
 * checks them again, with the person's current role.
 */

export const ARCHIVE_PATH = '/archives/';

interface ArchiveClaims {
  /** team, person, the role when the link was made, file ids, zip name, expiry (unix seconds). */
  t: string;
  p: string | null;
  r: TeamRole | null;
  f: string[];
  n: string;
  e: number;
}

/** A key for this purpose only, derived from one of the app's keys. */
function signingKey(appKey: Uint8Array): Buffer {
  return createHmac('sha256', appKey).update('file-archive-url/v1').digest();
}

function sign(key: Buffer, payload: string): string {
  return createHmac('sha256', key).update(payload).digest('base64url');
}

/** The viewer's live files among `ids`, in the order asked (deleted, foreign and hidden ones left out). */
async function visibleFiles(
  db: Queryable,
  viewer: FolderViewer,
  ids: readonly string[],
): Promise<StoredFile[]> {
  const { rows } = await db.query<FileRow>(
    `SELECT * FROM files WHERE team_id = $1 AND ${inVisibleFolderSql('folder_id', '$2', '$3')}
        AND id = ANY($4::text[]) AND deleted_at IS NULL`,
    [...viewerParams(viewer), [...new Set(ids)]],
  );
  const byId = new Map(rows.map((row) => [row.id, fromRow(row)]));
  return [...new Set(ids)].flatMap((id) => byId.get(id) ?? []);
}

/** Checks every file and answers the signed link to their zip. An unknown or hidden file is a 404 naming it. */
export async function createFileArchive(
  s: Services,
  viewer: FolderViewer,
  fileIds: readonly string[],
  name = 'files',
): Promise<FileArchive> {
  const files = await visibleFiles(s.db, viewer, fileIds);
  const found = new Set(files.map((f) => f.id));
  const missing = [...new Set(fileIds)].filter((id) => !found.has(id));
  if (missing.length) {
    throw new AppError('not_found', `No file ${missing.join(', ')}.`, { details: { file_ids: missing } });
  }
  const zipName = `${name.replace(/\.zip$/i, '')}.zip`;
  const claims: ArchiveClaims = {
    t: viewer.teamId,
    p: viewer.personId,
    r: viewer.role,
    f: files.map((f) => f.id),
    n: zipName,
    e: Math.floor(Date.now() / 1000) + FILE_ARCHIVE_TTL_SECONDS,
  };
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  const token = `${payload}.${sign(signingKey(s.keys.hashing), payload)}`;
  return {
    url: `${s.config.PUBLIC_URL}${ARCHIVE_PATH}${token}`,
    name: zipName,
    file_count: files.length,
    size_bytes: files.reduce((sum, f) => sum + f.sizeBytes, 0),
    expires_in: FILE_ARCHIVE_TTL_SECONDS,
  };
}

/**
 * The files a link names, checked again now: the signature (constant time), the expiry, the person's
 * current role in the team (one who left, or was made a member since, sees what that role sees), and each
 * file's visibility. 403 for a link that was altered, 404 for an expired one or one with nothing left.
 */
export async function openFileArchive(
  s: Services,
  token: string,
): Promise<{ name: string; files: StoredFile[] }> {
  const [payload = '', signature = ''] = token.split('.');
  const expected = Buffer.from(sign(signingKey(s.keys.hashing), payload));
  const given = Buffer.from(signature);
  if (!payload || expected.length !== given.length || !timingSafeEqual(expected, given)) {
    throw new AppError(
      'forbidden',
      'This download link is not valid: use the url POST /v2/files/archive gave.',
    );
  }
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as ArchiveClaims;
  if (claims.e * 1000 <= Date.now()) {
    throw new AppError(
      'not_found',
      'This download link has expired (links last 10 minutes). Ask for a new one.',
    );
  }
  let role: TeamRole | null = null;
  if (claims.p) {
    const { rows } = await s.db.query<{ role: TeamRole }>(
      'SELECT role FROM memberships WHERE team_id = $1 AND person_id = $2',
      [claims.t, claims.p],
    );
    role = rows[0]?.role ?? null;
    // A member who has left the team takes none of its files away.
    if (claims.r !== null && role === null)
      throw new AppError('not_found', 'These files are not here any more.');
  }
  const files = await visibleFiles(s.db, { teamId: claims.t, personId: claims.p, role }, claims.f);
  if (!files.length) throw new AppError('not_found', 'These files are not here any more.');
  return { name: claims.n, files };
}

/** `cat.png`, `cat (2).png`, …: names unique inside the zip, whatever the files are called. */
function uniqueNames(files: readonly StoredFile[]): string[] {
  const taken = new Set<string>();
  return files.map((file) => {
    const dot = file.name.lastIndexOf('.');
    const [stem, ext] = dot > 0 ? [file.name.slice(0, dot), file.name.slice(dot)] : [file.name, ''];
    let candidate = file.name;
    for (let n = 2; taken.has(candidate.toLowerCase()); n += 1) candidate = `${stem} (${n})${ext}`;
    taken.add(candidate.toLowerCase());
    return candidate;
  });
}

/**
 * The zip of `files`, streamed: each file's bytes are read from storage only when the zip reaches it, and
 * stored as they are (media are compressed already), so the total size is known before the first byte.
 */
export function zipFiles(
  s: Services,
  files: readonly StoredFile[],
): Promise<{ stream: Readable; size: number | null }> {
  const zip = new yazl.ZipFile();
  const names = uniqueNames(files);
  files.forEach((file, index) => {
    zip.addReadStreamLazy(
      names[index]!,
      { compress: false, size: file.sizeBytes, mtime: file.createdAt },
      (done) => {
        s.blobs.createReadStream(file.storageKey).then(
          (stream) => done(null, stream),
          (error: unknown) => done(error, undefined as never),
        );
      },
    );
  });
  return new Promise((resolve) => {
    zip.end({ forceZip64Format: false, comment: '' }, (size?: number) =>
      resolve({
        stream: zip.outputStream as Readable,
        size: typeof size === 'number' && size >= 0 ? size : null,
      }),
    );
  });
}
