import type { z } from 'zod';
import {
  UPLOAD_SESSION_TTL_SECONDS,
  type UploadSession,
  type UploadSessionRequest,
} from '../../../contract/files.ts';
import type { Queryable } from '../../db/pool.ts';
import { AppError } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { presignUploadUrl, uploadSigningKey } from '../../storage/presigned-url.ts';
import type { FolderViewer } from '../folders/folder-visibility.ts';
import { newBlobKey, newFileId } from './file-ids.ts';
import { fromRow, toFileRecord } from './files.ts';
import { mediaUrl } from './media-urls.ts';
import { findSameBytes } from './same-bytes.ts';

type SessionRequest = z.output<typeof UploadSessionRequest>;

export interface UploadSessionRow {
  id: string;
  team_id: string;
  folder_id: string | null;
  person_id: string | null;
  filename: string | null;
  media_type: string;
  declared_size: number | null;
  declared_sha256: string | null;
  state: 'open' | 'uploading' | 'uploaded' | 'registered';
  storage_key: string | null;
  received_size: number | null;
  received_sha256: string | null;
  detected_media_type: string | null;
  expires_at: Date;
}

/** The name the file gets when the session gave none. */
export const DEFAULT_UPLOAD_NAME = 'upload';

/**
 * Starts an upload (spec 4.5): when the team already has a live file with the given hash that the caller
 * may see (not one in a private folder hidden from them), that file
 * (`deduplicated: true`, no session); otherwise a new session whose id becomes the file id, with a
 * presigned URL (of our own store, or of the bucket) and the proxy path.
 */
export async function createUploadSession(
  s: Services,
  caller: FolderViewer,
  folderId: string | null,
  request: SessionRequest,
): Promise<UploadSession> {
  const hex = request.hash?.slice('sha256:'.length) ?? null;
  if (hex) {
    const existing = await findSameBytes(s.db, caller, hex);
    if (existing) {
      const file = toFileRecord(fromRow(existing), s.config.PUBLIC_URL);
      return {
        deduplicated: true,
        file_id: file.id,
        url: file.url,
        session_id: file.id,
        public_url: file.url,
        hash: `sha256:${hex}`,
        file,
      };
    }
  }
  await sweepExpiredUploads(s).catch((error: unknown) =>
    s.log.warn('upload sweep failed', { error: String(error) }),
  );
  const id = newFileId();
  const expiresAt = new Date(Date.now() + UPLOAD_SESSION_TTL_SECONDS * 1000);
  const direct = await directUpload(s, id, request, hex, expiresAt);
  await s.db.query(
    `INSERT INTO upload_sessions (id, team_id, folder_id, person_id, filename, media_type, declared_size,
                                  declared_sha256, expires_at, storage_key)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [
      id,
      caller.teamId,
      folderId,
      caller.personId,
      request.filename ?? null,
      request.media_type,
      request.size ?? null,
      hex,
      expiresAt,
      direct.storageKey,
    ],
  );
  return {
    deduplicated: false,
    session_id: id,
    upload_url: direct.url,
    public_url: mediaUrl(s.config.PUBLIC_URL, id, request.filename ?? DEFAULT_UPLOAD_NAME),
    proxy_url: `/v2/files/upload/${id}`,
    headers: direct.headers,
    expires_in: UPLOAD_SESSION_TTL_SECONDS,
    hash: hex ? `sha256:${hex}` : null,
  };
}

/**
 * Where the client PUTs the bytes: straight into the bucket of a remote store (a presigned PUT under a
 * fresh `uploads/` key, kept on the session), else our own presigned `/uploads/<id>` URL.
 */
async function directUpload(
  s: Services,
  id: string,
  request: SessionRequest,
  sha256: string | null,
  expiresAt: Date,
): Promise<{ url: string; headers: Record<string, string>; storageKey: string | null }> {
  if (s.blobs.presignUpload) {
    const storageKey = newBlobKey('uploads');
    const { url, headers } = await s.blobs.presignUpload(storageKey, {
      contentType: request.media_type,
      size: request.size ?? null,
      sha256,
      expiresInSeconds: UPLOAD_SESSION_TTL_SECONDS,
    });
    return { url, headers, storageKey };
  }
  return {
    url: presignUploadUrl(uploadSigningKey(s.keys.hashing), s.config.PUBLIC_URL, id, expiresAt),
    headers: { 'Content-Type': request.media_type },
    storageKey: null,
  };
}

/** A session by id: of the team when `teamId` is given (the proxy), by id alone for a presigned URL. */
export async function findUploadSession(
  db: Queryable,
  id: string,
  teamId: string | null,
): Promise<UploadSessionRow | null> {
  const { rows } = await db.query<UploadSessionRow>(
    `SELECT * FROM upload_sessions WHERE id = $1 ${teamId ? 'AND team_id = $2' : ''}`,
    teamId ? [id, teamId] : [id],
  );
  return rows[0] ?? null;
}

/**
 * Takes the session for one upload: `open` and unexpired → `uploading`, atomically, so two PUTs at once
 * cannot both write. Errors: 404 unknown, another team's or expired (a session lasts one hour), 409 used.
 */
export async function claimUploadSession(
  db: Queryable,
  id: string,
  teamId: string | null,
): Promise<UploadSessionRow> {
  const { rows } = await db.query<UploadSessionRow>(
    `UPDATE upload_sessions SET state = 'uploading', updated_at = now()
      WHERE id = $1 AND state = 'open' AND expires_at > now() ${teamId ? 'AND team_id = $2' : ''}
      RETURNING *`,
    teamId ? [id, teamId] : [id],
  );
  if (rows[0]) return rows[0];
  const session = await findUploadSession(db, id, teamId);
  if (!session) throw new AppError('not_found', `No upload session ${id}.`);
  if (session.state !== 'open') {
    throw new AppError(
      'conflict',
      session.state === 'uploading'
        ? `Upload session ${id} is receiving an upload already.`
        : `Upload session ${id} has been used: a session takes exactly one upload. Start a new session.`,
    );
  }
  throw new AppError(
    'not_found',
    `Upload session ${id} has expired (sessions last one hour). Start a new one.`,
  );
}

/** A failed upload kept nothing: the session may be used again until it expires. */
export async function releaseUploadSession(db: Queryable, id: string): Promise<void> {
  await db.query(
    `UPDATE upload_sessions SET state = 'open', updated_at = now() WHERE id = $1 AND state = 'uploading'`,
    [id],
  );
}

/** How long bytes of a direct upload wait for `POST /files/import` after their session expired. */
export const UNREGISTERED_UPLOAD_GRACE_HOURS = 24;

/**
 * Forgets sessions that can no longer be used: unused ones once expired, and direct uploads never
 * registered (or cut off by a crash mid-upload, or put straight into a bucket: we cannot tell whether bytes
 * came) a day after their expiry (their bytes are removed). A few at a time, on the way to a new
 * session, so no timer is needed and the work is spread over requests.
 */
export async function sweepExpiredUploads(s: Services, batch = 20): Promise<number> {
  const { rows } = await s.db.query<{ storage_key: string | null }>(
    `DELETE FROM upload_sessions WHERE id IN (
       SELECT id FROM upload_sessions
        WHERE state <> 'registered'
          AND expires_at < now() - CASE WHEN state IN ('uploaded', 'uploading') OR storage_key IS NOT NULL THEN interval '${UNREGISTERED_UPLOAD_GRACE_HOURS} hours'
                                        ELSE interval '0' END
        LIMIT ${batch} FOR UPDATE SKIP LOCKED)
     RETURNING storage_key`,
  );
  await Promise.all(rows.map((row) => (row.storage_key ? s.blobs.delete(row.storage_key) : undefined)));
  return rows.length;
}
