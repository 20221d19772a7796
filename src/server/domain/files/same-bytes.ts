import type { Queryable } from '../../db/pool.ts';
import { type FolderViewer, inVisibleFolderSql, viewerParams } from '../folders/folder-visibility.ts';
import type { FileRow } from './files.ts';

/*
 * One rule for uploaded bytes the team already has, on every upload-session path (the session's hash, the
 * proxy PUT, the presigned PUT then import, the bucket's PUT then import): the file the uploader may see
 * that already holds them is the answer, and no second copy is stored. A unique index cannot say this
 * (generated outputs, imports by URL and files in a private folder hidden from the uploader may share
 * bytes with an upload), so registrations of the same bytes in a team take turns on an advisory lock and
 * each looks again once it holds it: two tabs uploading the same file at the same moment store it once.
 */

/**
 * Waits until no other transaction is registering these bytes in this team; held until `tx` ends. Two
 * different pairs hashing alike on the 64-bit key only wait for each other; they never share a file.
 */
export async function lockSameBytes(tx: Queryable, teamId: string, sha256: string): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`file-bytes:${teamId}:${sha256}`]);
}

/** The oldest live file of the team with these bytes that the viewer may see (not one in a hidden folder). */
export async function findSameBytes(
  db: Queryable,
  viewer: FolderViewer,
  sha256: string,
): Promise<FileRow | null> {
  const { rows } = await db.query<FileRow>(
    `SELECT * FROM files WHERE team_id = $1 AND ${inVisibleFolderSql('folder_id', '$2', '$3')} AND sha256 = $4
        AND deleted_at IS NULL
      ORDER BY created_at ASC LIMIT 1`,
    [...viewerParams(viewer), sha256],
  );
  return rows[0] ?? null;
}
