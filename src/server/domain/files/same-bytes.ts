import type { Queryable } from '../../db/pool.ts';
import { type FolderViewer, inVisibleFolderSql, viewerParams } from '../folders/folder-visibility.ts';
import type { FileRow } from './files.ts';

/*
 * One rule for bytes a person (or their key) brings that the team already has, on every path that makes a
 * file from someone's bytes: the upload session's hash, the proxy PUT, the presigned PUT then import, the
 * bucket's PUT then import, the small inline upload (`POST /files`) and an import by URL. The file the
 * uploader may see that already holds them is the answer (the same file record, where it is, with its
 * link), no row is added and no second copy of the bytes is kept. The folder the upload named is not
 * forced on that file (it may be filed elsewhere, or moving it into a private folder would hide it from
 * others): the answer's `workspace_id` says where it is, and the console offers to move it there.
 * Generated outputs are not covered: each output is its own file, with its job's lineage (spec 2.2).
 *
 * A unique index cannot say this (generated outputs, and files in a private folder hidden from the
 * uploader, may share bytes with an upload), so registrations of the same bytes in a team take turns on
 * an advisory lock and each looks again once it holds it: two tabs uploading the same file at the same
 * moment store it once.
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

/**
 * The check a registration makes inside its transaction, just before it adds a row: takes the lock for
 * these bytes, then looks again. Null means no file the viewer may see has them: add the new one (before
 * `tx` ends, so the next registration of the same bytes finds it).
 */
export async function claimSameBytes(
  tx: Queryable,
  viewer: FolderViewer,
  sha256: string,
): Promise<FileRow | null> {
  await lockSameBytes(tx, viewer.teamId, sha256);
  return findSameBytes(tx, viewer, sha256);
}
