import type { Readable } from 'node:stream';
import { type FileRecord, UPLOAD_MAX_BYTES } from '../../../contract/files.ts';
import { type Queryable, transaction } from '../../db/pool.ts';
import { AppError } from '../../errors.ts';
import type { Services } from '../../services.ts';
import type { FolderViewer } from '../folders/folder-visibility.ts';
import { fromRow, toFileRecord } from './files.ts';
import { storedMediaType } from './media-type-policy.ts';
import { type ReceivedBytes, receiveBytes } from './receive-bytes.ts';
import { registerBlob } from './register-blob.ts';
import { findSameBytes } from './same-bytes.ts';
import {
  claimUploadSession,
  DEFAULT_UPLOAD_NAME,
  releaseUploadSession,
  type UploadSessionRow,
} from './upload-sessions.ts';

/** Refuses at once a body whose Content-Length already says it is too long. */
function checkDeclaredLength(contentLength: string | undefined, maxBytes: number): void {
  const length = Number(contentLength);
  if (contentLength !== undefined && Number.isFinite(length) && length > maxBytes) {
    throw new AppError(
      'payload_too_large',
      `The body is ${length} bytes; this session takes at most ${maxBytes}.`,
      { details: { max_bytes: maxBytes }, headers: { connection: 'close' } },
    );
  }
}

/** Takes the session, streams the body to storage under its rules; a refusal frees the session again. */
async function receiveIntoSession(
  s: Services,
  sessionId: string,
  teamId: string | null,
  body: Readable,
  contentLength: string | undefined,
): Promise<{ session: UploadSessionRow; received: ReceivedBytes }> {
  const session = await claimUploadSession(s.db, sessionId, teamId);
  try {
    const maxBytes = session.declared_size ?? UPLOAD_MAX_BYTES;
    checkDeclaredLength(contentLength, maxBytes);
    const received = await receiveBytes(s, body, {
      maxBytes,
      exactBytes: session.declared_size,
      sha256: session.declared_sha256,
      label: 'The upload',
    });
    return { session, received };
  } catch (error) {
    // The rest of a refused body is read and dropped; the answer closes the connection.
    body.resume();
    await releaseUploadSession(s.db, sessionId);
    throw error;
  }
}

function registerInput(
  session: UploadSessionRow,
  received: ReceivedBytes,
  mediaType: string,
  viewer: FolderViewer,
) {
  return {
    id: session.id,
    teamId: session.team_id,
    folderId: session.folder_id,
    name: session.filename ?? DEFAULT_UPLOAD_NAME,
    mediaType,
    origin: 'upload' as const,
    received,
    sameBytesFor: viewer,
  };
}

/**
 * The proxy PUT (Bearer): receives the bytes and registers the file at once; bytes the team got meanwhile
 * (another tab's upload of the same file) answer that file, and these are not kept.
 */
export async function uploadThroughProxy(
  s: Services,
  viewer: FolderViewer,
  sessionId: string,
  body: Readable,
  contentLength: string | undefined,
): Promise<FileRecord> {
  const { session, received } = await receiveIntoSession(s, sessionId, viewer.teamId, body, contentLength);
  try {
    const file = await transaction(s.db, async (tx) => {
      await tx.query(
        `UPDATE upload_sessions SET state = 'registered', storage_key = $2, received_size = $3,
                        received_sha256 = $4, updated_at = now() WHERE id = $1`,
        [session.id, received.storageKey, received.size, received.sha256],
      );
      const mediaType = storedMediaType(received.head, session.media_type);
      return registerBlob(s, tx, registerInput(session, received, mediaType, viewer));
    });
    // Bytes the client may also have put straight into the bucket are not the file's: remove them.
    if (session.storage_key?.startsWith('uploads/'))
      await s.blobs.delete(session.storage_key).catch(() => {});
    if (file.id !== session.id) await dropUnusedBytes(s, session.id, received.storageKey);
    return file;
  } catch (error) {
    await s.blobs.delete(received.storageKey).catch(() => {});
    await releaseUploadSession(s.db, sessionId);
    throw error;
  }
}

/**
 * The presigned direct PUT (no bearer; the signature was checked): receives the bytes and keeps them for
 * `POST /files/import` with the session's `public_url`, which registers the file.
 */
export async function uploadDirect(
  s: Services,
  sessionId: string,
  body: Readable,
  contentLength: string | undefined,
): Promise<void> {
  const { session, received } = await receiveIntoSession(s, sessionId, null, body, contentLength);
  const { rowCount } = await s.db.query(
    `UPDATE upload_sessions SET state = 'uploaded', storage_key = $2, received_size = $3, received_sha256 = $4,
            detected_media_type = $5, updated_at = now() WHERE id = $1`,
    [
      sessionId,
      received.storageKey,
      received.size,
      received.sha256,
      storedMediaType(received.head, session.media_type),
    ],
  );
  if (rowCount !== 1) {
    // The session was swept meanwhile (an upload that outlived its session by a day): keep nothing.
    await s.blobs.delete(received.storageKey);
    throw new AppError('not_found', `Upload session ${sessionId} has expired. Start a new one.`);
  }
}

/**
 * Registers a direct upload (`POST /files/import` with the session's `public_url`). Importing it again
 * answers the file already registered. 404 for another team's or an unknown session; 409 before the bytes
 * have arrived.
 */
export async function registerDirectUpload(
  s: Services,
  viewer: FolderViewer,
  sessionId: string,
  name: string | undefined,
): Promise<FileRecord | null> {
  const registered = await transaction(s.db, async (tx) => {
    const { rows } = await tx.query<UploadSessionRow>(
      'SELECT * FROM upload_sessions WHERE id = $1 AND team_id = $2 FOR UPDATE',
      [sessionId, viewer.teamId],
    );
    const session = rows[0];
    if (!session) return null;
    if (session.state === 'registered') return againFile(s, tx, viewer, session);
    if (session.state !== 'uploaded' || !session.storage_key) {
      throw new AppError(
        'conflict',
        `Nothing has been uploaded to session ${sessionId} yet: PUT the bytes to its upload_url first.`,
      );
    }
    const received: ReceivedBytes = {
      storageKey: session.storage_key,
      size: Number(session.received_size),
      sha256: session.received_sha256!,
      head: Buffer.alloc(0),
    };
    await tx.query(`UPDATE upload_sessions SET state = 'registered', updated_at = now() WHERE id = $1`, [
      sessionId,
    ]);
    const input = registerInput(session, received, session.detected_media_type ?? session.media_type, viewer);
    return { file: await registerBlob(s, tx, { ...input, name: name ?? input.name }), received };
  });
  if (!registered) return null;
  if ('received' in registered && registered.file.id !== sessionId)
    await dropUnusedBytes(s, sessionId, registered.received.storageKey);
  return registered.file;
}

/**
 * A registered session imported again: null when its file carries its id (the caller finds it), else the
 * file its bytes were recognised as, so importing twice answers the same file on either path.
 */
async function againFile(
  s: Services,
  tx: Queryable,
  viewer: FolderViewer,
  session: UploadSessionRow,
): Promise<{ file: FileRecord } | null> {
  const own = await tx.query('SELECT 1 FROM files WHERE id = $1', [session.id]);
  if (own.rowCount || !session.received_sha256) return null;
  const same = await findSameBytes(tx, viewer, session.received_sha256);
  return same ? { file: toFileRecord(fromRow(same), s.config.PUBLIC_URL) } : null;
}

/** An upload recognised as a file the team had: its own copy of the bytes is removed. */
export async function dropUnusedBytes(s: Services, sessionId: string, storageKey: string): Promise<void> {
  await s.blobs
    .delete(storageKey)
    .catch((error: unknown) =>
      s.log.warn('duplicate upload bytes not removed', { session_id: sessionId, error: String(error) }),
    );
}
