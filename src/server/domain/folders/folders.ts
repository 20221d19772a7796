import type { z } from 'zod';
import type { Folder, FolderVisibility } from '../../../contract/folders.ts';
import type { Queryable } from '../../db/pool.ts';
import { AppError } from '../../errors.ts';
import { type AuditOrigin, recordAuditEvent } from '../audit/record-audit-event.ts';
import { decodeCursor, encodeCursor, microsecondInstant, splitPage } from '../page-cursor.ts';
import { slugCandidates } from './folder-slug.ts';
import { type FolderViewer, folderSeenSql, seesEveryFolder, viewerParams } from './folder-visibility.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
type Visibility = z.infer<typeof FolderVisibility>;

interface FolderRow {
  id: string;
  name: string;
  slug: string;
  visibility: Visibility;
  team_id: string;
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
  file_count: number;
  cursor_at: string;
}

const SELECT_FOLDER = `SELECT w.id, w.name, w.slug, w.visibility, w.team_id, w.created_by, w.created_at, w.updated_at,
    (SELECT count(*)::int FROM files f WHERE f.folder_id = w.id AND f.deleted_at IS NULL) AS file_count,
    ${microsecondInstant('w.created_at')} AS cursor_at
  FROM workspaces w`;

/** The folders the viewer sees (folder-visibility.ts); parameters $1 team, $2 person, $3 sees-all. */
const VISIBLE = `w.team_id = $1 AND ${folderSeenSql('w', '$2', '$3')}`;

function toFolder(row: FolderRow): Folder {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    visibility: row.visibility,
    team_id: row.team_id,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    file_count: row.file_count,
  };
}

/**
 * A new folder (spec 4.6). The slug comes from the name and is unique per team: on a clash the next
 * candidate (`name-2`, `name-3`...) is tried, so two people naming folders alike both succeed.
 */
export async function createFolder(
  db: Queryable,
  viewer: FolderViewer,
  input: { name: string; visibility?: Visibility | undefined },
): Promise<Folder> {
  if (!viewer.personId) {
    throw new AppError(
      'workspace_owner_unresolvable',
      'This account has no person to own the folder (a service key): create folders with a personal key or in the console.',
    );
  }
  for (const slug of slugCandidates(input.name)) {
    const { rows } = await db.query<{ id: string }>(
      `INSERT INTO workspaces (team_id, name, slug, visibility, created_by) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (team_id, slug) DO NOTHING RETURNING id`,
      [viewer.teamId, input.name, slug, input.visibility ?? 'team', viewer.personId],
    );
    if (rows[0]) return (await findFolder(db, viewer, rows[0].id))!;
  }
  throw new Error('createFolder: no free slug');
}

/** A folder the viewer can see, by id or slug; null otherwise (another team's folder is unknown here). */
export async function findFolder(
  db: Queryable,
  viewer: FolderViewer,
  idOrSlug: string,
): Promise<Folder | null> {
  const byId = UUID.test(idOrSlug);
  const { rows } = await db.query<FolderRow>(
    `${SELECT_FOLDER} WHERE ${VISIBLE} AND ${byId ? 'w.id = $4::uuid' : 'w.slug = $4'}`,
    [...viewerParams(viewer), idOrSlug],
  );
  return rows[0] ? toFolder(rows[0]) : null;
}

export async function getFolder(db: Queryable, viewer: FolderViewer, idOrSlug: string): Promise<Folder> {
  const folder = await findFolder(db, viewer, idOrSlug);
  if (!folder) throw new AppError('not_found', `No folder \`${idOrSlug}\` in this team.`);
  return folder;
}

/** The folders the viewer can see, newest first, with a cursor. */
export async function listFolders(
  db: Queryable,
  viewer: FolderViewer,
  query: { limit: number; cursor?: string | undefined; q?: string | undefined },
): Promise<{ data: Folder[]; next_cursor: string | null }> {
  const values = viewerParams(viewer);
  const where = [VISIBLE];
  if (query.q) {
    values.push(`%${query.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    where.push(`w.name ILIKE $${values.length}`);
  }
  if (query.cursor) {
    const { instant, id } = decodeCursor(query.cursor, UUID);
    values.push(instant, id);
    where.push(`(w.created_at, w.id) < ($${values.length - 1}::timestamptz, $${values.length}::uuid)`);
  }
  const { rows } = await db.query<FolderRow>(
    `${SELECT_FOLDER} WHERE ${where.join(' AND ')} ORDER BY w.created_at DESC, w.id DESC LIMIT ${query.limit + 1}`,
    values,
  );
  const { page, nextCursor } = splitPage(rows, query.limit, (last) => encodeCursor(last.cursor_at, last.id));
  return { data: page.map(toFolder), next_cursor: nextCursor };
}

/**
 * Renames a folder (the slug stays, so links keep working) or changes its visibility. Making a folder
 * private, or public again, is for its creator, owners and managers: a member must not hide a shared
 * folder from the team.
 */
export async function updateFolder(
  db: Queryable,
  viewer: FolderViewer,
  idOrSlug: string,
  change: { name?: string | undefined; visibility?: Visibility | undefined },
  origin: AuditOrigin,
): Promise<Folder> {
  const folder = await getFolder(db, viewer, idOrSlug);
  if (change.visibility !== undefined && change.visibility !== folder.visibility) {
    const { rows } = await db.query<{ created_by: string | null }>(
      'SELECT created_by FROM workspaces WHERE id = $1',
      [folder.id],
    );
    const mayChange = seesEveryFolder(viewer) || rows[0]?.created_by === viewer.personId;
    if (!mayChange) {
      throw new AppError(
        'forbidden',
        "Only the folder's creator, owners and managers change its visibility.",
      );
    }
  }
  await db.query(
    `UPDATE workspaces SET name = coalesce($2, name), visibility = coalesce($3, visibility), updated_at = now()
      WHERE id = $1`,
    [folder.id, change.name ?? null, change.visibility ?? null],
  );
  if (change.visibility !== undefined && change.visibility !== folder.visibility) {
    await recordAuditEvent(db, {
      teamId: viewer.teamId,
      action: 'folder.visibility_changed',
      origin,
      target: { type: 'folder', id: folder.id },
      details: { name: change.name ?? folder.name, from: folder.visibility, to: change.visibility },
    });
  }
  return (await findFolder(db, viewer, folder.id))!;
}

/**
 * A folder the caller may file into, by id or slug (X-Workspace-Id, `workspace_id`), or 404. A private
 * folder the caller may not see answers exactly like an unknown one, so naming it neither files into it
 * nor tells that it exists. Used wherever a request files something into a folder.
 */
export async function resolveFolder(
  tx: Queryable,
  viewer: FolderViewer,
  reference: string | undefined | null,
): Promise<string | null> {
  if (!reference) return null;
  const { rows } = await tx.query<{ id: string }>(
    `SELECT w.id FROM workspaces w WHERE ${VISIBLE} AND ${UUID.test(reference) ? 'w.id = $4::uuid' : 'w.slug = $4'}`,
    [...viewerParams(viewer), reference],
  );
  if (!rows[0]) throw new AppError('not_found', `No folder \`${reference}\` in this team (X-Workspace-Id).`);
  return rows[0].id;
}
