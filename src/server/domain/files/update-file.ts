import type { FileRecord } from '../../../contract/files.ts';
import { AppError } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { type FolderViewer, inVisibleFolderSql, viewerParams } from '../folders/folder-visibility.ts';
import { resolveFolder } from '../folders/folders.ts';
import { type FileRow, findFile, fromRow, toFileRecord } from './files.ts';

/**
 * Renames and/or moves a file (`workspaceId: null` takes it out of its folder). URLs keep working. The file
 * and the destination must both be visible to the viewer: a private folder they may not see, or a file in
 * one, is a 404 like an unknown one.
 */
export async function updateFile(
  s: Services,
  viewer: FolderViewer,
  id: string,
  change: { name?: string | undefined; workspaceId?: string | null | undefined },
): Promise<FileRecord> {
  const file = await findFile(s.db, viewer, id);
  if (!file) throw new AppError('not_found', `No file ${id}.`);
  const moving = change.workspaceId !== undefined;
  const folderId = moving ? await resolveFolder(s.db, viewer, change.workspaceId) : file.folderId;
  const { rows } = await s.db.query<FileRow>(
    `UPDATE files SET name = coalesce($5, name), folder_id = $6, updated_at = now()
      WHERE team_id = $1 AND ${inVisibleFolderSql('folder_id', '$2', '$3')} AND id = $4 AND deleted_at IS NULL RETURNING *`,
    [...viewerParams(viewer), id, change.name ?? null, folderId],
  );
  if (!rows[0]) throw new AppError('not_found', `No file ${id}.`);
  return toFileRecord(fromRow(rows[0]), s.config.PUBLIC_URL);
}

/**
 * Deletes a file the viewer may see (one in a private folder hidden from them is a 404): the bytes and thumbnail go, the row stays (marked deleted, unlisted, its URL 404) so
 * lineage graphs still show where things came from.
 */
export async function deleteFile(s: Services, viewer: FolderViewer, id: string): Promise<void> {
  const { rows } = await s.db.query<FileRow>(
    `UPDATE files SET deleted_at = now(), updated_at = now()
      WHERE team_id = $1 AND ${inVisibleFolderSql('folder_id', '$2', '$3')} AND id = $4 AND deleted_at IS NULL RETURNING *`,
    [...viewerParams(viewer), id],
  );
  const file = rows[0] ? fromRow(rows[0]) : null;
  if (!file) throw new AppError('not_found', `No file ${id}.`);
  // Another live file may share the blob key only if it was copied by key; ours never are, so remove it.
  await s.blobs.delete(file.storageKey);
  if (file.thumbnailKey) await s.blobs.delete(file.thumbnailKey);
}
