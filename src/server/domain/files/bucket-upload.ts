import type { Readable } from 'node:stream';
import { type FileRecord, UPLOAD_MAX_BYTES } from '../../../contract/files.ts';
import { transaction } from '../../db/pool.ts';
import { AppError } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { BlobNotFoundError } from '../../storage/blob-store.ts';
import type { FolderViewer } from '../folders/folder-visibility.ts';
import { storedMediaType } from './media-type-policy.ts';
import { type ReceivedBytes, receiveBytes } from './receive-bytes.ts';
import { registerBlob } from './register-blob.ts';
import { dropUnusedBytes } from './upload-flow.ts';
import { DEFAULT_UPLOAD_NAME, releaseUploadSession, type UploadSessionRow } from './upload-sessions.ts';

/**
 * Registers bytes a client PUT straight into the bucket (`POST /files/import` with the session's
 * `public_url`). Null when the session is not one awaiting that. The bucket may not have checked the
 * declared hash (not every S3-compatible server checks checksums), so the bytes are read back, counted and
 * hashed as they are copied to their file's key: a mismatch is refused (422) and the upload deleted, and
 * the session may take another upload until it expires. A later PUT to the presigned URL cannot change the
 * file, which lives under its own key.
 */
export async function completeBucketUpload(
  s: Services,
  viewer: FolderViewer,
  sessionId: string,
  name: string | undefined,
): Promise<FileRecord | null> {
  const teamId = viewer.teamId;
  const { rows } = await s.db.query<UploadSessionRow>(
    `UPDATE upload_sessions SET state = 'uploading', updated_at = now()
      WHERE id = $1 AND team_id = $2 AND state = 'open' AND storage_key LIKE 'uploads/%'
      RETURNING *`,
    [sessionId, teamId],
  );
  const session = rows[0];
  if (!session?.storage_key) return null;
  const uploadKey = session.storage_key;
  let received: ReceivedBytes;
  let upload: Readable | undefined;
  try {
    upload = await readUpload(s, uploadKey, sessionId);
    received = await receiveBytes(s, upload, {
      maxBytes: session.declared_size ?? UPLOAD_MAX_BYTES,
      exactBytes: session.declared_size,
      sha256: session.declared_sha256,
      label: 'The upload',
    });
  } catch (error) {
    // A refused upload is not read to its end: its connection to the bucket is closed, not left pending.
    upload?.destroy();
    if (error instanceof AppError && error.status !== 409) await s.blobs.delete(uploadKey).catch(() => {});
    await releaseUploadSession(s.db, sessionId);
    throw error;
  }
  try {
    const file = await transaction(s.db, async (tx) => {
      await tx.query(
        `UPDATE upload_sessions SET state = 'registered', storage_key = $2, received_size = $3,
                received_sha256 = $4, updated_at = now() WHERE id = $1`,
        [sessionId, received.storageKey, received.size, received.sha256],
      );
      return registerBlob(s, tx, {
        id: session.id,
        teamId: session.team_id,
        folderId: session.folder_id,
        name: name ?? session.filename ?? DEFAULT_UPLOAD_NAME,
        mediaType: storedMediaType(received.head, session.media_type),
        origin: 'upload',
        received,
        sameBytesFor: viewer,
      });
    });
    if (file.id !== sessionId) await dropUnusedBytes(s, sessionId, received.storageKey);
    await s.blobs
      .delete(uploadKey)
      .catch((error: unknown) =>
        s.log.warn('upload object not removed', { session_id: sessionId, error: String(error) }),
      );
    return file;
  } catch (error) {
    await s.blobs.delete(received.storageKey).catch(() => {});
    await releaseUploadSession(s.db, sessionId);
    throw error;
  }
}

async function readUpload(s: Services, key: string, sessionId: string) {
  try {
    return await s.blobs.createReadStream(key);
  } catch (error) {
    if (error instanceof BlobNotFoundError) {
      throw new AppError(
        'conflict',
        `Nothing has been uploaded to session ${sessionId} yet: PUT the bytes to its upload_url first.`,
      );
    }
    throw error;
  }
}
