import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import type { Services } from '../../services.ts';
import { newBlobKey } from './file-ids.ts';
import { type FileRow, fromRow, type StoredFile } from './files.ts';
import { THUMBNAIL_MAX_EDGE } from './image-probe.ts';
import { withLocalCopy } from './local-copy.ts';
import { thumbnailKind } from './thumbnail-kinds.ts';

const WAVEFORM_SIZE = '512x128';
const WAVEFORM_COLOUR = '0x6366f1';

/** Thumbnails being made in this process, by file id: concurrent requests wait for the same one. */
const inFlight = new Map<string, Promise<StoredFile>>();

/**
 * The file with its thumbnail made and stored (once): a scaled image, a video's poster frame (ffmpeg's
 * `thumbnail` filter picks a representative frame of the first ones, not a black first frame), or an
 * audio waveform. When the bytes give no picture the file is marked, so it is never tried again.
 */
export function ensureThumbnail(s: Services, file: StoredFile): Promise<StoredFile> {
  if (file.thumbnailKey || file.thumbnailFailed || !thumbnailKind(file.mediaType))
    return Promise.resolve(file);
  const running = inFlight.get(file.id);
  if (running) return running;
  const made = makeAndStore(s, file).finally(() => inFlight.delete(file.id));
  inFlight.set(file.id, made);
  return made;
}

async function makeAndStore(s: Services, file: StoredFile): Promise<StoredFile> {
  const picture = await withLocalCopy(s, file.storageKey, (input) => render(s, file.mediaType, input)).catch(
    (error: unknown) => {
      s.log.warn('thumbnail failed', { file_id: file.id, error: String(error) });
      return null;
    },
  );
  if (!picture) {
    const { rows } = await s.db.query<FileRow>(
      'UPDATE files SET thumbnail_failed = true WHERE id = $1 RETURNING *',
      [file.id],
    );
    return rows[0] ? fromRow(rows[0]) : file;
  }
  const key = newBlobKey('thumbnails', '.webp');
  await s.blobs.put(key, picture, 'image/webp');
  // Another process may have made one meanwhile: the first one stays, ours is removed.
  const { rows } = await s.db.query<FileRow>(
    'UPDATE files SET thumbnail_key = $2 WHERE id = $1 AND thumbnail_key IS NULL RETURNING *',
    [file.id, key],
  );
  if (rows[0]) return fromRow(rows[0]);
  await s.blobs.delete(key);
  const { rows: current } = await s.db.query<FileRow>('SELECT * FROM files WHERE id = $1', [file.id]);
  return current[0] ? fromRow(current[0]) : file;
}

async function render(s: Services, mediaType: string, input: string): Promise<Buffer | null> {
  const kind = thumbnailKind(mediaType);
  if (kind === 'image') return toWebp(input);
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mc-thumb-'));
  try {
    const out = path.join(dir, 'frame.png');
    const filter =
      kind === 'video'
        ? ['-vf', `thumbnail=30,scale=${THUMBNAIL_MAX_EDGE * 2}:-2`, '-frames:v', '1']
        : ['-filter_complex', `showwavespic=s=${WAVEFORM_SIZE}:colors=${WAVEFORM_COLOUR}`, '-frames:v', '1'];
    await s.media.ffmpeg(['-protocol_whitelist', 'file', '-i', input, ...filter, out]);
    return await toWebp(out);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

function toWebp(input: string): Promise<Buffer> {
  return sharp(input, { autoOrient: true, limitInputPixels: 268_402_689 })
    .resize(THUMBNAIL_MAX_EDGE, THUMBNAIL_MAX_EDGE, { fit: 'inside', withoutEnlargement: true })
    .webp({ quality: 80 })
    .toBuffer();
}
