import type { z } from 'zod';
import type { AuditEntry, AuditLogQuery } from '../../../contract/audit-log.ts';
import type { Queryable } from '../../db/pool.ts';
import { toPersonEntry } from '../identity/person-entry.ts';
import { decodeJsonCursor, encodeJsonCursor, splitPage } from '../page-cursor.ts';

interface EntryRow {
  id: string;
  team_id: string;
  seq: number;
  occurred_at: Date;
  actor_type: AuditEntry['actor']['type'];
  actor_person_id: string | null;
  actor_api_key_id: string | null;
  action: AuditEntry['action'];
  target_type: NonNullable<AuditEntry['target']>['type'] | null;
  target_id: string | null;
  client_address: string | null;
  user_agent: string | null;
  details: Record<string, unknown>;
  prev_hash: string | null;
  hash: string;
  actor_email: string | null;
  actor_display_name: string | null;
  actor_avatar_url: string | null;
  actor_key_name: string | null;
  target_label: string | null;
}

/** Ids of persons and folders are UUIDs; only such a target is compared with their columns. */
const UUID_TEXT = `'^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'`;

/** A readable name for the target as it is now (the entry keeps the id; names change and that is fine). */
const TARGET_LABEL = `CASE e.target_type
    WHEN 'person' THEN (SELECT p.email FROM persons p WHERE e.target_id ~ ${UUID_TEXT} AND p.id = e.target_id::uuid)
    WHEN 'api_key' THEN (SELECT k.name FROM api_keys k WHERE k.id = e.target_id AND k.team_id = e.team_id)
    WHEN 'folder' THEN (SELECT w.name FROM workspaces w WHERE e.target_id ~ ${UUID_TEXT} AND w.id = e.target_id::uuid AND w.team_id = e.team_id)
    WHEN 'template' THEN (SELECT t.name FROM templates t WHERE t.id = e.target_id AND t.team_id = e.team_id)
    WHEN 'team' THEN (SELECT t.name FROM teams t WHERE e.target_id ~ ${UUID_TEXT} AND t.id = e.target_id::uuid)
    WHEN 'invitation' THEN e.details->>'email'
    ELSE NULL END`;

/**
 * A page of the team's audit log, newest first (by position in the chain, which is also time order:
 * appends are serialised per team and take their instant once they hold the chain).
 */
export async function auditLogPage(
  db: Queryable,
  teamId: string,
  query: z.output<typeof AuditLogQuery>,
): Promise<{ data: AuditEntry[]; next_cursor: string | null }> {
  const values: unknown[] = [teamId];
  const where = ['e.team_id = $1'];
  const param = (value: unknown) => {
    values.push(value);
    return `$${values.length}`;
  };
  if (query.actor) {
    where.push(
      query.actor.startsWith('key_')
        ? `e.actor_api_key_id = ${param(query.actor)}`
        : `e.actor_person_id = ${param(query.actor)}::uuid`,
    );
  }
  if (query.action) {
    where.push(
      query.action.endsWith('.')
        ? `starts_with(e.action, ${param(query.action)})`
        : `e.action = ${param(query.action)}`,
    );
  }
  if (query.target) where.push(`e.target_id = ${param(query.target)}`);
  if (query.from) where.push(`e.occurred_at >= ${param(query.from)}::timestamptz`);
  if (query.to) where.push(`e.occurred_at < ${param(query.to)}::timestamptz`);
  if (query.cursor) {
    const { seq } = decodeJsonCursor(query.cursor, (v) =>
      typeof v === 'object' && v !== null && Number.isSafeInteger((v as { seq?: unknown }).seq)
        ? { seq: (v as { seq: number }).seq }
        : null,
    );
    where.push(`e.seq < ${param(seq)}`);
  }
  const { rows } = await db.query<EntryRow>(
    `SELECT e.id, e.team_id, e.seq, e.occurred_at, e.actor_type, e.actor_person_id, e.actor_api_key_id, e.action,
            e.target_type, e.target_id, e.client_address, e.user_agent, e.details, e.prev_hash, e.hash,
            ap.email AS actor_email, ap.display_name AS actor_display_name, ap.avatar_url AS actor_avatar_url,
            ak.name AS actor_key_name, ${TARGET_LABEL} AS target_label
       FROM audit_events e
       LEFT JOIN persons ap ON ap.id = e.actor_person_id
       LEFT JOIN api_keys ak ON ak.id = e.actor_api_key_id AND ak.team_id = e.team_id
      WHERE ${where.join(' AND ')}
      ORDER BY e.seq DESC LIMIT ${query.limit + 1}`,
    values,
  );
  const { page, nextCursor } = splitPage(rows, query.limit, (last) => encodeJsonCursor({ seq: last.seq }));
  return { data: page.map(toEntry), next_cursor: nextCursor };
}

function toEntry(r: EntryRow): AuditEntry {
  return {
    id: r.id,
    seq: r.seq,
    team_id: r.team_id,
    action: r.action,
    occurred_at: r.occurred_at.toISOString(),
    actor: {
      type: r.actor_type,
      person:
        r.actor_person_id && r.actor_email !== null
          ? toPersonEntry({
              id: r.actor_person_id,
              email: r.actor_email,
              display_name: r.actor_display_name ?? r.actor_email,
              avatar_url: r.actor_avatar_url,
            })
          : null,
      api_key: r.actor_api_key_id ? { id: r.actor_api_key_id, name: r.actor_key_name } : null,
    },
    target:
      r.target_type && r.target_id ? { type: r.target_type, id: r.target_id, label: r.target_label } : null,
    client_address: r.client_address,
    user_agent: r.user_agent,
    details: r.details,
    prev_hash: r.prev_hash,
    hash: r.hash,
  };
}
