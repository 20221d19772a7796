import sharp from 'sharp';
import type { FileRecord } from '../../../contract/files.ts';
import type { Queryable } from '../../db/pool.ts';
import type { Services } from '../../services.ts';
import { type FileRow, fromRow, toFileRecord } from './files.ts';
import { baseMediaType, RASTER_TYPES } from './image-probe.ts';
import { mediaFacts } from './media-facts.ts';
import type { ReceivedBytes } from './receive-bytes.ts';

/** Width and height of a raster image read from its header (sharp reads no pixels for this). */
async function imageSize(s: Services, key: string, mediaType: string) {
  if (!RASTER_TYPES.has(baseMediaType(mediaType))) return null;
  const local = s.blobs.localPath?.(key);
  if (!local) return null;
  try {
    const { autoOrient } = await sharp(local).metadata();
    return autoOrient.width > 0 && autoOrient.height > 0 ? autoOrient : null;
  } catch {
    return null;
  }
}

export interface RegisterBlobInput {
  id: string;
  teamId: string;
  folderId: string | null;
  name: string;
  mediaType: string;
  origin: 'upload' | 'import';
  received: ReceivedBytes;
}

/**
 * Registers bytes already in the store as a file row (inside the caller's transaction, `tx`), so a session
 * is marked used together with the file it made. Images are measured by sharp, video and audio by ffmpeg
 * (both read headers only); the thumbnail is made on its first request.
 */
export async function registerBlob(
  s: Services,
  tx: Queryable,
  input: RegisterBlobInput,
): Promise<FileRecord> {
  const size = await imageSize(s, input.received.storageKey, input.mediaType);
  const local = s.blobs.localPath?.(input.received.storageKey);
  const { width, height, duration_seconds, ...metadata } = local
    ? await mediaFacts(s.media, local, input.mediaType)
    : {};
  const { rows } = await tx.query<FileRow>(
    `INSERT INTO files (id, team_id, folder_id, name, media_type, size_bytes, sha256, storage_key, origin, width, height,
                        duration_seconds, metadata)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING *`,
    [
      input.id,
      input.teamId,
      input.folderId,
      input.name,
      input.mediaType,
      input.received.size,
      input.received.sha256,
      input.received.storageKey,
      input.origin,
      size?.width ?? width ?? null,
      size?.height ?? height ?? null,
      duration_seconds ?? null,
      JSON.stringify(metadata),
    ],
  );
  return toFileRecord(fromRow(rows[0]!), s.config.PUBLIC_URL);
}
