import type { z } from 'zod';
import type { FileListQuery, FileRecord } from '../../../contract/files.ts';
import type { Queryable } from '../../db/pool.ts';
import { type FolderViewer, inVisibleFolderSql, viewerParams } from '../folders/folder-visibility.ts';
import { decodeCursor, encodeCursor, microsecondInstant, splitPage } from '../page-cursor.ts';
import { type StoredFile, toFileRecord } from './files.ts';

type FileListFilters = z.output<typeof FileListQuery>;

/** The columns of `files`, named as `StoredFile` names them. */
const STORED_FILE_COLUMNS = `id, team_id AS "teamId", folder_id AS "folderId", name, media_type AS "mediaType",
  size_bytes AS "sizeBytes", sha256, storage_key AS "storageKey", origin, job_id AS "jobId", width, height,
  duration_seconds AS "durationSeconds", thumbnail_key AS "thumbnailKey",
  thumbnail_failed AS "thumbnailFailed", metadata, created_at AS "createdAt", updated_at AS "updatedAt",
  deleted_at AS "deletedAt",
  ${microsecondInstant('created_at')} AS "cursorAt"`;

/** A row with its creation instant to the microsecond (a JS Date keeps milliseconds only). */
type ListedFile = StoredFile & { cursorAt: string };

/** `%`, `_` and `\` taken literally in a LIKE pattern. */
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The bare type of a stored media type (parameters such as `; charset=...` dropped). */
const BARE_TYPE = `btrim(split_part(media_type, ';', 1))`;

/** Builds the WHERE clause of a file listing from its filters; always limited to the team. */
export function fileListFilter(viewer: FolderViewer, q: Omit<FileListFilters, 'limit'>) {
  // Deleted files stay as lineage records only: never listed. Files in another person's private folder
  // are not listed either.
  const [teamId, personId, seesAll] = viewerParams(viewer);
  const where = ['team_id = $1', 'deleted_at IS NULL', inVisibleFolderSql('folder_id', '$2', '$3')];
  const values: unknown[] = [teamId, personId, seesAll];
  const add = (sql: (p: string) => string, value: unknown) => {
    values.push(value);
    where.push(sql(`$${values.length}`));
  };
  if (q.folder === 'none') where.push('folder_id IS NULL');
  else if (q.folder?.length) add((p) => `folder_id = ANY(${p}::uuid[])`, q.folder);
  if (q.media_type?.length) {
    const exact = q.media_type.filter((t) => !t.endsWith('/*'));
    const families = q.media_type.filter((t) => t.endsWith('/*')).map((t) => `${t.slice(0, -1)}%`);
    const either: string[] = [];
    if (exact.length) {
      values.push(exact);
      either.push(`${BARE_TYPE} = ANY($${values.length}::text[])`);
    }
    if (families.length) {
      values.push(families);
      either.push(`${BARE_TYPE} LIKE ANY($${values.length}::text[])`);
    }
    where.push(`(${either.join(' OR ')})`);
  }
  if (q.origin?.length) add((p) => `origin = ANY(${p}::text[])`, q.origin);
  if (q.job) add((p) => `job_id = ${p}`, q.job);
  // Words in any order, each found in the name, a generated file's prompt or its model ("fox dusk flux").
  for (const word of (q.q ?? '').split(/\s+/).filter(Boolean).slice(0, 10)) {
    add(
      (p) => `(name ILIKE ${p} OR metadata->>'prompt' ILIKE ${p} OR metadata->>'model' ILIKE ${p})`,
      `%${likeLiteral(word)}%`,
    );
  }
  if (q.created_from) add((p) => `created_at >= ${p}::timestamptz`, q.created_from);
  if (q.created_to) add((p) => `created_at < ${p}::timestamptz`, q.created_to);
  if (q.cursor) {
    const { instant: createdAt, id } = decodeCursor(q.cursor);
    values.push(createdAt, id);
    where.push(`(created_at, id) < ($${values.length - 1}::timestamptz, $${values.length})`);
  }
  return { where: where.join(' AND '), values };
}

/** A page of the team's files, newest first, and the cursor of the next page (null on the last). */
export async function listFiles(
  db: Queryable,
  viewer: FolderViewer,
  query: FileListFilters,
  publicUrl: string,
): Promise<{ data: FileRecord[]; next_cursor: string | null }> {
  const { where, values } = fileListFilter(viewer, query);
  const { rows } = await db.query<ListedFile>(
    `SELECT ${STORED_FILE_COLUMNS} FROM files WHERE ${where}
      ORDER BY created_at DESC, id DESC LIMIT ${query.limit + 1}`,
    values,
  );
  const { page, nextCursor } = splitPage(rows, query.limit, (last) => encodeCursor(last.cursorAt, last.id));
  return {
    data: page.map(({ cursorAt: _, ...file }) => toFileRecord(file, publicUrl)),
    next_cursor: nextCursor,
  };
}
