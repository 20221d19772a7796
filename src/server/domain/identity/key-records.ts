import type { z } from 'zod';
import type { ApiKey, listApiKeys } from '../../../contract/api-keys.ts';
import type { Queryable } from '../../db/pool.ts';
import { AppError } from '../../errors.ts';
import { KEY_SPEND_LIMIT_SQL } from '../budgets/key-spend-limit.ts';
import { decodeCursor, encodeCursor, microsecondInstant, splitPage } from '../page-cursor.ts';
import type { RestrictionColumns } from './key-restrictions.ts';

type Relation = ApiKey['relation'];

interface KeyRow extends RestrictionColumns {
  id: string;
  name: string;
  start: string;
  last4: string;
  revealable: boolean;
  team_id: string;
  owner_person_id: string | null;
  owner_email: string | null;
  owner_display_name: string | null;
  owner_avatar_url: string | null;
  share_count: number;
  relation: Relation | null;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
  expires_at: Date | null;
  is_service: boolean;
  rotated_at: Date | null;
  previous_secret_expires_at: Date | null;
  spend_limit: ApiKey['spend_limit'];
  cursor_at: string;
}

/** A key as one person sees it: the record, and whether they may manage it (owner, or its team's manager). */
export interface VisibleKey {
  record: ApiKey;
  canManage: boolean;
  ownerPersonId: string | null;
  revoked: boolean;
}

/**
 * The key columns seen by the person `$1`. `relation` says why they see it, strongest first: they own it,
 * they are an owner or manager of its team, or it is shared with them; null when they may not see it.
 */
const KEY_SELECT = `
SELECT k.id, k.name, k.start, k.last4, k.revealable, k.team_id, k.owner_person_id,
       o.email AS owner_email, o.display_name AS owner_display_name, o.avatar_url AS owner_avatar_url,
       (SELECT count(*)::int FROM api_key_shares c WHERE c.api_key_id = k.id) AS share_count,
       CASE WHEN k.owner_person_id = $1 THEN 'owned'
            WHEN vm.role IN ('owner', 'manager') THEN 'team'
            WHEN vs.person_id IS NOT NULL THEN 'shared' END AS relation,
       k.created_at, k.last_used_at, k.revoked_at, k.expires_at, ${KEY_SPEND_LIMIT_SQL} AS spend_limit,
       k.allowed_tools, k.allowed_models, k.allowed_ips, k.read_only, k.rate_limit_per_minute,
       k.max_concurrent_jobs, k.is_service, k.rotated_at,
       CASE WHEN k.previous_secret_expires_at > now() THEN k.previous_secret_expires_at END
         AS previous_secret_expires_at,
       ${microsecondInstant('k.created_at')} AS cursor_at
  FROM api_keys k
  LEFT JOIN persons o ON o.id = k.owner_person_id
  LEFT JOIN memberships vm ON vm.team_id = k.team_id AND vm.person_id = $1
  LEFT JOIN api_key_shares vs ON vs.api_key_id = k.id AND vs.person_id = $1`;

function toRecord(row: KeyRow & { relation: Relation }): ApiKey {
  return {
    id: row.id,
    name: row.name,
    start: row.start,
    last4: row.last4,
    revealable: row.revealable,
    owner:
      row.owner_person_id && row.owner_email !== null
        ? {
            user_id: row.owner_person_id,
            email: row.owner_email,
            display_name: row.owner_display_name ?? row.owner_email,
            avatar_url: row.owner_avatar_url,
          }
        : null,
    team_id: row.team_id,
    relation: row.relation,
    shared: row.share_count > 0,
    share_count: row.share_count,
    created_at: row.created_at.toISOString(),
    last_used_at: row.last_used_at?.toISOString() ?? null,
    revoked_at: row.revoked_at?.toISOString() ?? null,
    expires_at: row.expires_at?.toISOString() ?? null,
    allowed_tools: row.allowed_tools as ApiKey['allowed_tools'],
    allowed_models: row.allowed_models,
    allowed_ips: row.allowed_ips,
    read_only: row.read_only,
    rate_limit_per_minute: row.rate_limit_per_minute,
    max_concurrent_jobs: row.max_concurrent_jobs,
    service: row.is_service,
    rotated_at: row.rotated_at?.toISOString() ?? null,
    previous_secret_expires_at: row.previous_secret_expires_at?.toISOString() ?? null,
    spend_limit: row.spend_limit
      ? { credits: Number(row.spend_limit.credits), period: row.spend_limit.period }
      : null,
  };
}

/**
 * The key as `personId` sees it, or 404 when they may not see it (another team's key is answered like an
 * unknown one). `forUpdate` locks the key row for the caller's transaction.
 */
export async function findVisibleKey(
  db: Queryable,
  personId: string,
  keyId: string,
  options: { forUpdate?: boolean } = {},
): Promise<VisibleKey> {
  if (options.forUpdate) await db.query('SELECT 1 FROM api_keys WHERE id = $1 FOR UPDATE', [keyId]);
  const { rows } = await db.query<KeyRow>(`${KEY_SELECT} WHERE k.id = $2`, [personId, keyId]);
  const row = rows[0];
  if (!row?.relation) throw new AppError('not_found', 'No such API key.');
  const relation = row.relation;
  return {
    record: toRecord({ ...row, relation }),
    canManage: relation === 'owned' || relation === 'team',
    ownerPersonId: row.owner_person_id,
    revoked: row.revoked_at !== null,
  };
}

/** 403 for a person who sees the key (it is shared with them) but may not manage it. */
export function requireManager(key: VisibleKey, action: string): void {
  if (!key.canManage) {
    throw new AppError(
      'forbidden',
      `Only the key's owner or a manager of its team may ${action}; it is shared with you.`,
    );
  }
}

type ListQuery = z.output<typeof listApiKeys.query>;

/** Every key the person may see (owned, of teams they manage, shared with them), newest first. */
export async function listVisibleKeys(
  db: Queryable,
  personId: string,
  query: ListQuery,
): Promise<{ data: ApiKey[]; next_cursor: string | null }> {
  const values: unknown[] = [personId];
  const where = [
    `k.id IN (
      SELECT id FROM api_keys WHERE owner_person_id = $1
      UNION SELECT a.id FROM api_keys a JOIN memberships m ON m.team_id = a.team_id
                         WHERE m.person_id = $1 AND m.role IN ('owner', 'manager')
      UNION SELECT api_key_id FROM api_key_shares WHERE person_id = $1)`,
  ];
  if (!query.include_revoked) where.push('k.revoked_at IS NULL');
  if (query.cursor) {
    const { instant, id } = decodeCursor(query.cursor);
    values.push(instant, id);
    where.push(`(k.created_at, k.id) < ($2::timestamptz, $3)`);
  }
  const filtered = `SELECT * FROM (${KEY_SELECT} WHERE ${where.join(' AND ')}) visible
    ${query.filter ? `WHERE relation = $${values.push(query.filter)}` : ''}
    ORDER BY created_at DESC, id DESC LIMIT ${query.limit + 1}`;
  const { rows } = await db.query<KeyRow & { relation: Relation }>(filtered, values);
  const { page, nextCursor } = splitPage(rows, query.limit, (last) => encodeCursor(last.cursor_at, last.id));
  return { data: page.map(toRecord), next_cursor: nextCursor };
}
