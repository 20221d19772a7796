import sharp from 'sharp';
import type { z } from 'zod';
import type { FileMetadata, FileRecord } from '../../../contract/files.ts';
import type { Queryable } from '../../db/pool.ts';
import type { Services } from '../../services.ts';
import type { FolderViewer } from '../folders/folder-visibility.ts';
import { type FileRow, fromRow, toFileRecord } from './files.ts';
import { baseMediaType, RASTER_TYPES } from './image-probe.ts';
import { withLocalCopy } from './local-copy.ts';
import { mediaFacts } from './media-facts.ts';
import type { ReceivedBytes } from './receive-bytes.ts';
import { claimSameBytes } from './same-bytes.ts';

type Metadata = z.infer<typeof FileMetadata>;

/** Width and height of a raster image read from its header (sharp reads no pixels for this). */
async function imageSize(file: string) {
  try {
    const { autoOrient } = await sharp(file).metadata();
    return autoOrient.width > 0 && autoOrient.height > 0 ? autoOrient : null;
  } catch {
    return null;
  }
}

/** What the bytes say of themselves: an image's size, a video's or a sound's duration, size and codecs. */
async function measure(s: Services, key: string, mediaType: string): Promise<Metadata> {
  const type = baseMediaType(mediaType);
  const raster = RASTER_TYPES.has(type);
  if (!raster && !type.startsWith('video/') && !type.startsWith('audio/')) return {};
  // A remote store's blob is copied here first: both tools read headers only, but need a seekable file.
  return withLocalCopy(s, key, async (file) => {
    const facts = await mediaFacts(s.media, file, mediaType);
    const size = raster ? await imageSize(file) : null;
    return size ? { ...facts, width: size.width, height: size.height } : facts;
  });
}

export interface RegisterBlobInput {
  id: string;
  teamId: string;
  folderId: string | null;
  name: string;
  mediaType: string;
  origin: 'upload' | 'import';
  received: ReceivedBytes;
  /**
   * Bytes brought by this viewer (an upload or an import): when the team already has a file with these
   * bytes that they may see, that file is the answer and no row is added (`same-bytes.ts`). The caller then
   * removes `received`'s blob.
   */
  sameBytesFor: FolderViewer;
}

/**
 * Registers bytes already in the store as a file row (inside the caller's transaction, `tx`), so a session
 * is marked used together with the file it made. Images are measured by sharp, video and audio by ffmpeg
 * (both read headers only); the thumbnail is made on its first request. Bytes the team already has in a
 * file the viewer may see answer that file instead (its id is not `input.id`; same-bytes.ts).
 */
export async function registerBlob(
  s: Services,
  tx: Queryable,
  input: RegisterBlobInput,
): Promise<FileRecord> {
  const existing = await claimSameBytes(tx, input.sameBytesFor, input.received.sha256);
  if (existing) return toFileRecord(fromRow(existing), s.config.PUBLIC_URL);
  const { width, height, duration_seconds, ...metadata } = await measure(
    s,
    input.received.storageKey,
    input.mediaType,
  );
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
      width ?? null,
      height ?? null,
      duration_seconds ?? null,
      JSON.stringify(metadata),
    ],
  );
  return toFileRecord(fromRow(rows[0]!), s.config.PUBLIC_URL);
}
