import { createHash } from 'node:crypto';
import type { z } from 'zod';
import {
  DEFAULT_MEDIA_TYPE,
  FileId,
  type FileMetadata,
  FileName,
  type FileRecord,
  MediaType,
} from '../../../contract/files.ts';
import type { OutputEntry } from '../../../contract/jobs.ts';
import type { Queryable } from '../../db/pool.ts';
import { transaction } from '../../db/pool.ts';
import { AppError } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { type FolderViewer, inVisibleFolderSql, viewerParams } from '../folders/folder-visibility.ts';
import { newBlobKey, newFileId } from './file-ids.ts';
import { probeImage } from './image-probe.ts';
import { withLocalCopy } from './local-copy.ts';
import { mediaFacts } from './media-facts.ts';
import { mediaUrl, THUMBNAIL_NAME, thumbnailUrl } from './media-urls.ts';
import { claimSameBytes, findSameBytes } from './same-bytes.ts';
import { hasThumbnail, thumbnailKind } from './thumbnail-kinds.ts';

type Metadata = z.infer<typeof FileMetadata>;
export type FileOrigin = FileRecord['origin'];

/** A row of `files`, as the server sees it (storage keys included; never sent to clients as is). */
export interface StoredFile {
  id: string;
  teamId: string;
  folderId: string | null;
  name: string;
  mediaType: string;
  sizeBytes: number;
  /** Lower-case hex. */
  sha256: string;
  storageKey: string;
  origin: FileOrigin;
  jobId: string | null;
  width: number | null;
  height: number | null;
  durationSeconds: number | null;
  thumbnailKey: string | null;
  /** A thumbnail was tried and the bytes would not give one. */
  thumbnailFailed: boolean;
  /** What was learned from the bytes beyond the columns (frame rate, codecs...). */
  metadata: Metadata;
  createdAt: Date;
  updatedAt: Date;
  /** Set when the file was deleted: the row stays for lineage, the bytes are gone. */
  deletedAt: Date | null;
}

export interface FileRow {
  id: string;
  team_id: string;
  folder_id: string | null;
  name: string;
  media_type: string;
  size_bytes: number;
  sha256: string;
  storage_key: string;
  origin: FileOrigin;
  job_id: string | null;
  width: number | null;
  height: number | null;
  duration_seconds: number | null;
  thumbnail_key: string | null;
  thumbnail_failed: boolean;
  metadata: Metadata;
  created_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
}

export function fromRow(row: FileRow): StoredFile {
  return {
    id: row.id,
    teamId: row.team_id,
    folderId: row.folder_id,
    name: row.name,
    mediaType: row.media_type,
    sizeBytes: row.size_bytes,
    sha256: row.sha256,
    storageKey: row.storage_key,
    origin: row.origin,
    jobId: row.job_id,
    width: row.width,
    height: row.height,
    durationSeconds: row.duration_seconds,
    thumbnailKey: row.thumbnail_key,
    thumbnailFailed: row.thumbnail_failed,
    metadata: row.metadata,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    deletedAt: row.deleted_at,
  };
}

/** The contract's File (absolute public URLs under PUBLIC_URL). */
export function toFileRecord(file: StoredFile, publicUrl: string): FileRecord {
  const metadata: Metadata = { ...file.metadata };
  if (file.width !== null) metadata.width = file.width;
  if (file.height !== null) metadata.height = file.height;
  if (file.durationSeconds !== null) metadata.duration_seconds = file.durationSeconds;
  return {
    id: file.id,
    name: file.name,
    media_type: file.mediaType,
    size_bytes: file.sizeBytes,
    hash: `sha256:${file.sha256}`,
    url: mediaUrl(publicUrl, file.id, file.name),
    thumbnail_url: hasThumbnail(file) ? thumbnailUrl(publicUrl, file.id) : null,
    workspace_id: file.folderId,
    origin: file.origin,
    job_id: file.jobId,
    metadata,
    created_at: file.createdAt.toISOString(),
    updated_at: file.updatedAt.toISOString(),
  };
}

/** One entry of a job's output envelope (spec 2.2) for a stored file. */
export function toOutputEntry(file: FileRecord): z.infer<typeof OutputEntry> {
  return {
    url: file.url,
    file_id: file.id,
    media_type: file.media_type,
    size_bytes: file.size_bytes,
    thumbnail_url: file.thumbnail_url,
  };
}

export interface StoreFileInput {
  teamId: string;
  /** A folder of the team (already resolved from id or slug), or none. */
  folderId?: string | null;
  name: string;
  mediaType: string;
  data: Buffer;
  origin: FileOrigin;
  /** The job that produced the file: required for origin `job`, refused for the others. */
  jobId?: string | null;
  /** Files the job used, recorded as its inputs (files of other teams are skipped). Needs `jobId`. */
  inputFileIds?: readonly string[];
  /** The file id to use; an upload session's id becomes the file id (spec 2.5). Default: a new one. */
  id?: string;
  /** What the caller learned from the bytes (duration of a video...). Image dimensions are measured here. */
  metadata?: Metadata;
  /**
   * Bytes brought by this viewer (an inline upload): when the team already has a file with these bytes
   * that they may see, that file is the answer, nothing is stored and no row is added (`same-bytes.ts`).
   * Not for job outputs, which each need their own file and lineage.
   */
  sameBytesFor?: FolderViewer;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Stores the bytes and registers the file: measures images and makes their thumbnail, writes the blobs
 * under fresh keys, then the row and its lineage in one transaction. If the row cannot be written, the
 * blobs just written are removed again (fresh keys: nothing else can point at them).
 */
export async function storeFile(services: Services, input: StoreFileInput): Promise<FileRecord> {
  const id = input.id ?? newFileId();
  if (!FileId.safeParse(id).success) throw new Error(`storeFile: bad file id ${JSON.stringify(id)}`);
  const name = FileName.safeParse(input.name);
  if (!name.success) throw new Error(`storeFile: bad file name ${JSON.stringify(input.name)}`);
  const jobId = input.jobId ?? null;
  if ((input.origin === 'job') !== (jobId !== null)) {
    throw new Error('storeFile: a job id goes with origin job, and only with it');
  }
  if (input.inputFileIds?.length && jobId === null) throw new Error('storeFile: inputFileIds need a jobId');
  const viewer = input.sameBytesFor;
  if (viewer && (jobId !== null || viewer.teamId !== input.teamId)) {
    throw new Error("storeFile: sameBytesFor is for the team's own uploads, not job outputs");
  }
  if (viewer) {
    // Recognised before anything is written: the usual case, a file sent again, stores nothing.
    const same = await findSameBytes(services.db, viewer, sha256Hex(input.data));
    if (same) return toFileRecord(fromRow(same), services.config.PUBLIC_URL);
  }
  const folderId = input.folderId ?? null;
  // Header-safe and well-formed, as the public route sends it back as Content-Type.
  const mediaType = MediaType.safeParse(input.mediaType).data ?? DEFAULT_MEDIA_TYPE;

  const image = await probeImage(input.data, mediaType);
  const storageKey = newBlobKey('files');
  const thumbnailKey = image?.thumbnail ? newBlobKey('thumbnails', '.webp') : null;
  const written: string[] = [];
  try {
    const stored = await services.blobs.put(storageKey, input.data, mediaType);
    written.push(storageKey);
    // A video or a sound the caller did not measure is measured here (its duration for the list's column).
    const measured =
      input.metadata?.duration_seconds === undefined && /^(video|audio)\//.test(mediaType)
        ? await withLocalCopy(services, storageKey, (file) => mediaFacts(services.media, file, mediaType))
        : {};
    const metadata: Metadata = { ...measured, ...input.metadata };
    const width = image?.width ?? metadata.width ?? null;
    const height = image?.height ?? metadata.height ?? null;
    const durationSeconds = metadata.duration_seconds ?? null;
    delete metadata.width;
    delete metadata.height;
    delete metadata.duration_seconds;
    if (thumbnailKey && image?.thumbnail) {
      await services.blobs.put(thumbnailKey, image.thumbnail, 'image/webp');
      written.push(thumbnailKey);
    }
    const { row, added } = await transaction(services.db, async (client) => {
      await assertTeamOwns(client, input.teamId, folderId, jobId);
      // Looked at again under the lock: the same bytes may have arrived meanwhile (another tab, a retry).
      const same = viewer ? await claimSameBytes(client, viewer, stored.sha256) : null;
      if (same) return { row: same, added: false };
      const { rows } = await client.query<FileRow>(
        `INSERT INTO files (id, team_id, folder_id, name, media_type, size_bytes, sha256, storage_key, origin,
                            job_id, width, height, duration_seconds, thumbnail_key, metadata, thumbnail_failed)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)
         RETURNING *`,
        [
          id,
          input.teamId,
          folderId,
          name.data,
          mediaType,
          stored.size,
          stored.sha256,
          storageKey,
          input.origin,
          jobId,
          width,
          height,
          durationSeconds,
          thumbnailKey,
          JSON.stringify(metadata),
          // An image was tried here already; video and audio get theirs on first request.
          thumbnailKind(mediaType) === 'image' && thumbnailKey === null,
        ],
      );
      if (jobId !== null) {
        await client.query(`INSERT INTO file_lineage (file_id, job_id, role) VALUES ($1, $2, 'output')`, [
          id,
          jobId,
        ]);
        if (input.inputFileIds?.length) {
          await recordJobInputs(client, input.teamId, jobId, input.inputFileIds);
        }
      }
      return { row: rows[0]!, added: true };
    });
    if (!added) await removeBlobs(services, written);
    return toFileRecord(fromRow(row), services.config.PUBLIC_URL);
  } catch (error) {
    await Promise.all(written.map((key) => services.blobs.delete(key).catch(() => {})));
    throw error;
  }
}

/** Blobs written for a file that was not added (its bytes were recognised): nothing points at them. */
async function removeBlobs(services: Services, keys: readonly string[]): Promise<void> {
  await Promise.all(
    keys.map((key) =>
      services.blobs
        .delete(key)
        .catch((error: unknown) =>
          services.log.warn('duplicate upload bytes not removed', { key, error: String(error) }),
        ),
    ),
  );
}

function sha256Hex(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

async function assertTeamOwns(
  db: Queryable,
  teamId: string,
  folderId: string | null,
  jobId: string | null,
): Promise<void> {
  if (folderId !== null) {
    const found =
      UUID.test(folderId) &&
      (await db.query('SELECT 1 FROM workspaces WHERE id = $1 AND team_id = $2', [folderId, teamId]))
        .rowCount === 1;
    if (!found) throw new AppError('not_found', `No folder ${folderId}.`);
  }
  if (jobId !== null) {
    const { rowCount } = await db.query('SELECT 1 FROM jobs WHERE id = $1 AND team_id = $2', [jobId, teamId]);
    if (rowCount !== 1) throw new Error(`storeFile: job ${jobId} is not a job of team ${teamId}`);
  }
}

/**
 * Records files as inputs of a job (lineage role `input`). Only files of the job's own team are linked:
 * a job may read another team's file through its public URL, but lineage never crosses teams.
 * Returns how many rows were added (links already present are kept).
 */
export async function recordJobInputs(
  db: Queryable,
  teamId: string,
  jobId: string,
  fileIds: readonly string[],
): Promise<number> {
  if (fileIds.length === 0) return 0;
  const { rowCount } = await db.query(
    `INSERT INTO file_lineage (file_id, job_id, role)
     SELECT f.id, j.id, 'input' FROM files f JOIN jobs j ON j.id = $2 AND j.team_id = $1
      WHERE f.team_id = $1 AND f.id = ANY($3::text[])
     ON CONFLICT DO NOTHING`,
    [teamId, jobId, [...new Set(fileIds)]],
  );
  return rowCount ?? 0;
}

/**
 * A live file of the team that the viewer may see, or null: another team's file, a deleted one, or one in a
 * private folder hidden from the viewer is as unknown as a missing one (as in the listing).
 */
export async function findFile(db: Queryable, viewer: FolderViewer, id: string): Promise<StoredFile | null> {
  if (!FileId.safeParse(id).success) return null;
  const { rows } = await db.query<FileRow>(
    `SELECT * FROM files WHERE team_id = $1 AND ${inVisibleFolderSql('folder_id', '$2', '$3')} AND id = $4
        AND deleted_at IS NULL`,
    [...viewerParams(viewer), id],
  );
  return rows[0] ? fromRow(rows[0]) : null;
}

/** A file by id alone: for the public media route, where the unguessable id is the credential. */
export async function findFileById(db: Queryable, id: string): Promise<StoredFile | null> {
  if (!FileId.safeParse(id).success) return null;
  const { rows } = await db.query<FileRow>('SELECT * FROM files WHERE id = $1 AND deleted_at IS NULL', [id]);
  return rows[0] ? fromRow(rows[0]) : null;
}

export interface FileBlob {
  key: string;
  contentType: string;
  etag: string;
  /** For Content-Disposition. */
  filename: string;
}

/** The blob a media URL serves: the file itself, or its thumbnail (null when it has none). */
export function fileBlob(file: StoredFile, thumbnail: boolean): FileBlob | null {
  if (thumbnail && file.thumbnailKey) {
    return {
      key: file.thumbnailKey,
      contentType: 'image/webp',
      etag: `"${file.sha256}-thumbnail"`,
      filename: THUMBNAIL_NAME,
    };
  }
  // A file itself named thumbnail.webp, without a thumbnail, is what its name says.
  if (thumbnail && file.name !== THUMBNAIL_NAME) return null;
  return { key: file.storageKey, contentType: file.mediaType, etag: `"${file.sha256}"`, filename: file.name };
}
