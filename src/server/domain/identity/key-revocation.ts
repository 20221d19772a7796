import type { Queryable } from '../../db/pool.ts';
import type { ApiKeyResolver } from './api-keys.ts';

/** Where every process listening (ApiKeyResolver.listen) hears of a changed key, when the change commits. */
export const KEY_CHANGES_CHANNEL = 'api_key_changed';

/** Answers the ids of `changed`, notifying each on KEY_CHANGES_CHANNEL (sent only if the transaction commits). */
const NOTIFY_CHANGED = `SELECT id, pg_notify('${KEY_CHANGES_CHANNEL}', id) FROM changed`;

/**
 * Revokes keys matching `where` (SQL over `api_keys`, parameters from $1): the encrypted copy is erased (a
 * revoked key is never shown again) and `changed_at` tells other processes to drop their cached lookups.
 * Returns the ids; call `evictRevoked` with them once the transaction has committed.
 */
async function revokeWhere(db: Queryable, where: string, values: unknown[]): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    `WITH changed AS (
       UPDATE api_keys SET revoked_at = now(), changed_at = now(), secret_encrypted = NULL
        WHERE revoked_at IS NULL AND ${where} RETURNING id)
     ${NOTIFY_CHANGED}`,
    values,
  );
  return rows.map((r) => r.id);
}

export function revokeKey(db: Queryable, keyId: string): Promise<string[]> {
  return revokeWhere(db, 'id = $1', [keyId]);
}

/** The keys a person owns in a team (when they leave it). */
export function revokeMemberKeys(db: Queryable, teamId: string, personId: string): Promise<string[]> {
  return revokeWhere(db, 'team_id = $1 AND owner_person_id = $2', [teamId, personId]);
}

/** Marks a member's keys of a team changed (their role moved), so cached lookups everywhere are dropped. */
export async function markMemberKeysChanged(
  db: Queryable,
  teamId: string,
  personId: string,
): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    `WITH changed AS (
       UPDATE api_keys SET changed_at = now()
        WHERE team_id = $1 AND owner_person_id = $2 AND revoked_at IS NULL RETURNING id)
     ${NOTIFY_CHANGED}`,
    [teamId, personId],
  );
  return rows.map((r) => r.id);
}

/**
 * Marks one key changed (edited or rotated) in the caller's transaction, so every process drops its cached
 * lookup: call `evictKeys` with the answer once committed.
 */
export async function markKeyChanged(db: Queryable, keyId: string): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    `WITH changed AS (UPDATE api_keys SET changed_at = now() WHERE id = $1 RETURNING id) ${NOTIFY_CHANGED}`,
    [keyId],
  );
  return rows.map((r) => r.id);
}

/**
 * Drops this process's cached lookups at once. Other processes drop theirs when the notification reaches
 * them (at commit), or at their next `changed_at` check (within a second) if they are not listening.
 */
export function evictKeys(resolver: ApiKeyResolver, keyIds: readonly string[]): void {
  for (const id of keyIds) resolver.forget(id);
}
