import type { z } from 'zod';
import type { ApiKeyShares as ApiKeySharesSchema, ShareEntry } from '../../../contract/api-keys.ts';
import { SHARES_PER_KEY_MAX } from '../../../contract/api-keys.ts';
import { type Db, type Queryable, transaction } from '../../db/pool.ts';
import { AppError } from '../../errors.ts';
import { type AuditOrigin, recordAuditEvent } from '../audit/record-audit-event.ts';
import { bucketName, hit, type RateLimitRule } from '../rate-limit.ts';
import { findVisibleKey, requireManager, type VisibleKey } from './key-records.ts';
import { findPersonEntry, type PersonEntryRow, toPersonEntry } from './person-entry.ts';

type ApiKeyShares = z.infer<typeof ApiKeySharesSchema>;

/** Share requests per person (spec 4.11: rate limited per user). */
export const SHARE_RATE_LIMIT: RateLimitRule = { label: 'share requests', limit: 30, windowSeconds: 600 };

/**
 * The key's owner and its shares as `personId` may see them: the whole list for those who manage the key
 * (its owner, the team's owners and managers); a person it is shared with sees only their own share, never
 * who else holds the key.
 */
async function sharesOf(db: Queryable, key: VisibleKey, personId: string): Promise<ApiKeyShares> {
  const owner = key.ownerPersonId ? await findPersonEntry(db, key.ownerPersonId) : null;
  // Keys are always made by a person (sign-up or POST /api-keys), and persons are never deleted.
  if (!owner) throw new Error(`API key ${key.record.id} has no owner`);
  const { rows } = await db.query<PersonEntryRow & { shared_at: Date }>(
    `SELECT p.id, p.email, p.display_name, p.avatar_url, s.shared_at
       FROM api_key_shares s JOIN persons p ON p.id = s.person_id
      WHERE s.api_key_id = $1 AND ($2::boolean OR s.person_id = $3::uuid) ORDER BY s.shared_at, p.email`,
    [key.record.id, key.canManage, personId],
  );
  const shares: ShareEntry[] = rows.map((r) => ({
    ...toPersonEntry(r),
    shared_at: r.shared_at.toISOString(),
  }));
  return { owner, shares };
}

/** Owner and shares, for anyone who may see the key (a recipient sees only their own share). */
export async function listShares(db: Db, personId: string, keyId: string): Promise<ApiKeyShares> {
  return sharesOf(db, await findVisibleKey(db, personId, keyId), personId);
}

/**
 * Shares a key with the accounts of `emails` (owner or manager of its team only). Addresses with no
 * account come back in `not_found`. The key row is locked while the shares are counted and written, so
 * two requests together cannot pass 50 people; a request that would pass it shares with nobody.
 */
export async function shareKey(
  db: Db,
  personId: string,
  keyId: string,
  emails: readonly string[],
  origin: AuditOrigin,
): Promise<ApiKeyShares & { not_found: string[] }> {
  await hit(db, bucketName('key-share', personId), SHARE_RATE_LIMIT);
  const unique = [...new Set(emails)];
  return transaction(db, async (tx) => {
    const key = await findVisibleKey(tx, personId, keyId, { forUpdate: true });
    requireManager(key, 'share it');
    if (key.revoked) throw new AppError('conflict', 'This key is revoked; it cannot be shared.');
    const { rows: people } = await tx.query<{ id: string; email: string; shared: boolean }>(
      `SELECT p.id, p.email,
              EXISTS (SELECT 1 FROM api_key_shares s WHERE s.api_key_id = $2 AND s.person_id = p.id) AS shared
         FROM persons p WHERE p.email = ANY($1::text[])`,
      [unique, keyId],
    );
    const known = new Set(people.map((p) => p.email));
    // The owner has the key already; sharing it with them changes nothing.
    const added = people.filter((p) => !p.shared && p.id !== key.ownerPersonId);
    const current = key.record.share_count;
    if (current + added.length > SHARES_PER_KEY_MAX) {
      throw new AppError(
        'share_limit_reached',
        `A key can be shared with at most ${SHARES_PER_KEY_MAX} people; it has ${current} and this would add ${added.length}. Nothing was shared.`,
        {
          details: {
            limit: SHARES_PER_KEY_MAX,
            current,
            requested: added.length,
            fields: [
              {
                field: 'emails',
                message: `would share the key with more than ${SHARES_PER_KEY_MAX} people`,
                code: 'too_big',
              },
            ],
          },
        },
      );
    }
    if (added.length) {
      await tx.query(
        `INSERT INTO api_key_shares (api_key_id, person_id, shared_by)
         SELECT $1, unnest($2::uuid[]), $3 ON CONFLICT DO NOTHING`,
        [keyId, added.map((p) => p.id), personId],
      );
      await recordAuditEvent(tx, {
        teamId: key.record.team_id,
        action: 'api_key.shared',
        origin,
        target: { type: 'api_key', id: keyId },
        details: {
          name: key.record.name,
          shared_with: added.map((p) => ({ user_id: p.id, email: p.email })),
        },
      });
    }
    return { not_found: unique.filter((e) => !known.has(e)), ...(await sharesOf(tx, key, personId)) };
  });
}

/** Ends a share: the key's owner or a manager of its team, or the person it is shared with (leaving it). */
export async function removeShare(
  db: Db,
  personId: string,
  keyId: string,
  userId: string,
  origin: AuditOrigin,
): Promise<void> {
  await transaction(db, async (tx) => {
    const key = await findVisibleKey(tx, personId, keyId);
    if (userId !== personId) requireManager(key, 'stop sharing it with someone else');
    const removed = await tx.query<{ email: string }>(
      `DELETE FROM api_key_shares s USING persons p
        WHERE s.api_key_id = $1 AND s.person_id = $2 AND p.id = s.person_id RETURNING p.email`,
      [keyId, userId],
    );
    const email = removed.rows[0]?.email;
    if (!email) throw new AppError('not_found', 'This key is not shared with that person.');
    await recordAuditEvent(tx, {
      teamId: key.record.team_id,
      action: 'api_key.unshared',
      origin,
      target: { type: 'api_key', id: keyId },
      details: { name: key.record.name, user_id: userId, email, left: userId === personId },
    });
  });
}
