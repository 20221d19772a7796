import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import type {
  PublishTemplateRequest,
  Template,
  TemplateListQuery,
  TemplateStatus,
  TemplateVariable,
} from '../../../contract/templates.ts';
import type { Queryable } from '../../db/pool.ts';
import { AppError } from '../../errors.ts';
import { type AuditOrigin, recordAuditEvent } from '../audit/record-audit-event.ts';
import { decodeJsonCursor, encodeJsonCursor, microsecondInstant, splitPage } from '../page-cursor.ts';
import { STARTER_TEMPLATES } from './starter-templates.ts';
import { withTextLimits } from './variable-limits.ts';

interface TemplateRow {
  id: string;
  team_id: string | null;
  author_id: string | null;
  author_name: string | null;
  name: string;
  description: string;
  tags: string[];
  tool: Template['tool'];
  request: Record<string, unknown>;
  variables: TemplateVariable[];
  preview_url: string | null;
  status: TemplateStatus;
  use_count: number;
  created_at: Date;
  updated_at: Date;
  approved_at: Date | null;
  cursor_instant: string;
}

const SELECT = `SELECT t.*, p.display_name AS author_name,
  ${microsecondInstant('t.created_at')} AS cursor_instant
  FROM templates t LEFT JOIN persons p ON p.id = t.author_id`;

/** Approved templates, and every template of the caller's own team: what a caller may see and use. */
const VISIBLE = `(t.status = 'approved' OR t.team_id = $1)`;

export function toTemplate(row: TemplateRow): Template {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    tags: row.tags,
    tool: row.tool,
    request: row.request,
    variables: withTextLimits(row.tool, row.request, row.variables),
    preview_url: row.preview_url,
    status: row.status,
    author: row.author_id ? { user_id: row.author_id, display_name: row.author_name ?? '' } : null,
    team_id: row.team_id,
    use_count: row.use_count,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    approved_at: row.approved_at?.toISOString() ?? null,
  };
}

/** Writes the shipped starters (approved, no team); a newer server updates their definitions, not their counts. */
export async function ensureStarterTemplates(db: Queryable): Promise<void> {
  for (const starter of STARTER_TEMPLATES) {
    await db.query(
      `INSERT INTO templates (id, name, description, tags, tool, request, variables, preview_url, status, approved_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'approved', now())
       ON CONFLICT (id) DO UPDATE SET name = $2, description = $3, tags = $4, tool = $5, request = $6,
         variables = $7, preview_url = $8, updated_at = now()
       WHERE (templates.name, templates.description, templates.tags, templates.tool, templates.request,
              templates.variables, templates.preview_url)
         IS DISTINCT FROM ($2, $3, $4::text[], $5, $6::jsonb, $7::jsonb, $8)`,
      [
        starter.id,
        starter.name,
        starter.description,
        starter.tags,
        starter.tool,
        JSON.stringify(starter.request),
        JSON.stringify(starter.variables),
        starter.preview_url,
      ],
    );
  }
}

function notFound(id: string): AppError {
  return new AppError('not_found', `No template ${id}.`);
}

interface Cursor {
  count: number;
  instant: string;
  id: string;
}

function encodeTemplateCursor(row: TemplateRow): string {
  const cursor: Cursor = { count: row.use_count, instant: row.cursor_instant, id: row.id };
  return encodeJsonCursor(cursor);
}

function decodeTemplateCursor(text: string): Cursor {
  return decodeJsonCursor(text, (value) => {
    const cursor = value as Partial<Cursor> | null;
    return cursor &&
      Number.isInteger(cursor.count) &&
      typeof cursor.id === 'string' &&
      typeof cursor.instant === 'string' &&
      !Number.isNaN(Date.parse(cursor.instant))
      ? (cursor as Cursor)
      : null;
  });
}

/** `%`, `_` and `\` match themselves in the text search. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export async function listTemplates(
  db: Queryable,
  teamId: string,
  query: z.output<typeof TemplateListQuery>,
): Promise<{ data: Template[]; next_cursor: string | null }> {
  const values: unknown[] = query.author === 'me' ? [teamId] : [];
  const where = [query.author === 'me' ? 't.team_id = $1' : `t.status = 'approved'`];
  const param = (value: unknown) => {
    values.push(value);
    return `$${values.length}`;
  };
  if (query.tag?.length) where.push(`t.tags && ${param(query.tag)}::text[]`);
  if (query.tool?.length) where.push(`t.tool = ANY(${param(query.tool)}::text[])`);
  if (query.q) {
    const pattern = param(likePattern(query.q));
    where.push(
      `(t.name ILIKE ${pattern} OR t.description ILIKE ${pattern} OR ${param(query.q.toLowerCase())} = ANY(t.tags))`,
    );
  }
  const popular = query.sort === 'popular';
  if (query.cursor) {
    const cursor = decodeTemplateCursor(query.cursor);
    const instant = param(cursor.instant);
    const id = param(cursor.id);
    where.push(
      popular
        ? `(t.use_count, t.created_at, t.id) < (${param(cursor.count)}, ${instant}::timestamptz, ${id})`
        : `(t.created_at, t.id) < (${instant}::timestamptz, ${id})`,
    );
  }
  const order = popular ? 't.use_count DESC, t.created_at DESC, t.id DESC' : 't.created_at DESC, t.id DESC';
  const { rows } = await db.query<TemplateRow>(
    `${SELECT} WHERE ${where.join(' AND ')} ORDER BY ${order} LIMIT ${param(query.limit + 1)}`,
    values,
  );
  const { page, nextCursor } = splitPage(rows, query.limit, encodeTemplateCursor);
  return { data: page.map(toTemplate), next_cursor: nextCursor };
}

/** A template the caller may see (approved, or their team's own); any other answers 404. */
export async function getVisibleTemplate(db: Queryable, teamId: string, id: string): Promise<Template> {
  const { rows } = await db.query<TemplateRow>(`${SELECT} WHERE t.id = $2 AND ${VISIBLE}`, [teamId, id]);
  const row = rows[0];
  if (!row) throw notFound(id);
  return toTemplate(row);
}

/** Spec 4.8: one more use, whatever the approval state (of a template the caller may see). */
export async function countUse(db: Queryable, teamId: string, id: string): Promise<number> {
  const { rows } = await db.query<{ use_count: number }>(
    `UPDATE templates t SET use_count = use_count + 1 WHERE t.id = $2 AND ${VISIBLE} RETURNING use_count`,
    [teamId, id],
  );
  const row = rows[0];
  if (!row) throw notFound(id);
  return row.use_count;
}

export async function templateTags(db: Queryable): Promise<string[]> {
  const { rows } = await db.query<{ tag: string }>(
    `SELECT DISTINCT unnest(tags) AS tag FROM templates WHERE status = 'approved' ORDER BY tag`,
  );
  return rows.map((r) => r.tag);
}

export async function publishTemplate(
  db: Queryable,
  author: { teamId: string; personId: string | null },
  body: z.output<typeof PublishTemplateRequest>,
): Promise<Template> {
  const id = `tpl_${randomBytes(12).toString('hex')}`;
  const variables: TemplateVariable[] = body.variables;
  await db.query(
    `INSERT INTO templates (id, team_id, author_id, name, description, tags, tool, request, variables, preview_url)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [
      id,
      author.teamId,
      author.personId,
      body.name,
      body.description,
      [...new Set(body.tags)],
      body.tool,
      JSON.stringify(body.request),
      JSON.stringify(variables),
      body.preview_url ?? null,
    ],
  );
  return getVisibleTemplate(db, author.teamId, id);
}

/**
 * An operator's decision, recorded in the author team's audit log. Shipped starters are not reviewed: they
 * answer 404 like an unknown id.
 */
export async function reviewTemplate(
  db: Queryable,
  id: string,
  decision: 'approve' | 'reject',
  origin: AuditOrigin,
): Promise<Template> {
  const status: TemplateStatus = decision === 'approve' ? 'approved' : 'rejected';
  const { rows } = await db.query<{ team_id: string }>(
    `UPDATE templates SET status = $2, updated_at = now(),
       approved_at = CASE WHEN $2 = 'approved' THEN now() ELSE NULL END
     WHERE id = $1 AND team_id IS NOT NULL RETURNING team_id`,
    [id, status],
  );
  const row = rows[0];
  if (!row) throw notFound(id);
  await recordAuditEvent(db, {
    teamId: row.team_id,
    action: 'template.reviewed',
    origin,
    target: { type: 'template', id },
    details: { decision, status },
  });
  return getVisibleTemplate(db, row.team_id, id);
}

/** Templates waiting for a decision, oldest first (for the operator command). */
export async function pendingTemplates(db: Queryable): Promise<Template[]> {
  const { rows } = await db.query<TemplateRow>(
    `${SELECT} WHERE t.status = 'pending' ORDER BY t.created_at, t.id`,
  );
  return rows.map(toTemplate);
}
