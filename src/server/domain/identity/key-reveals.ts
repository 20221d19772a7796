import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import type { ApiKeyReveal as ApiKeyRevealSchema } from '../../../contract/api-keys.ts';
import type { PageQuery } from '../../../contract/common.ts';
import { type Db, transaction } from '../../db/pool.ts';
import { AppError } from '../../errors.ts';
import { type AuditOrigin, recordAuditEvent } from '../audit/record-audit-event.ts';
import { decodeCursor, encodeCursor, microsecondInstant, splitPage } from '../page-cursor.ts';
import { bucketName, hit, type RateLimitRule } from '../rate-limit.ts';
import { findVisibleKey, requireManager } from './key-records.ts';
import { toPersonEntry } from './person-entry.ts';
import { open } from './sealed-box.ts';

type ApiKeyReveal = z.infer<typeof ApiKeyRevealSchema>;

/** Reveals per person: enough for real use, too few to sweep many keys. */
export const REVEAL_RATE_LIMIT: RateLimitRule = { label: 'key reveals', limit: 20, windowSeconds: 600 };
const USER_AGENT_MAX = 512;

/**
 * The full key, for its owner, a manager of its team or a person it is shared with (others: 404). Only
 * keys created revealable and not revoked (409 `api_key_not_revealable`). The reveal is logged in the
 * same transaction that reads the secret, so no reveal goes unlogged (in the key's reveal log and in the
 * team's audit log, with the request's address and user agent).
 */
export async function revealKey(
  db: Db,
  encryptionKey: Buffer,
  personId: string,
  keyId: string,
  origin: AuditOrigin,
): Promise<string> {
  await hit(db, bucketName('key-reveal', personId), REVEAL_RATE_LIMIT);
  return transaction(db, async (tx) => {
    const key = await findVisibleKey(tx, personId, keyId);
    const { rows } = await tx.query<{ secret_encrypted: Buffer | null }>(
      'SELECT secret_encrypted FROM api_keys WHERE id = $1',
      [keyId],
    );
    const sealed = rows[0]?.secret_encrypted;
    if (!key.record.revealable || key.revoked || !sealed) {
      throw new AppError(
        'api_key_not_revealable',
        key.revoked
          ? 'This key is revoked; it cannot be shown again.'
          : 'This key was shown once when it was created and cannot be shown again.',
      );
    }
    await tx.query(
      `INSERT INTO api_key_reveals (id, api_key_id, person_id, ip_address, user_agent) VALUES ($1, $2, $3, $4, $5)`,
      [
        `rev_${randomBytes(8).toString('hex')}`,
        keyId,
        personId,
        origin.request?.address ?? null,
        origin.request?.userAgent?.slice(0, USER_AGENT_MAX) ?? null,
      ],
    );
    await recordAuditEvent(tx, {
      teamId: key.record.team_id,
      action: 'api_key.revealed',
      origin,
      target: { type: 'api_key', id: keyId },
      details: { name: key.record.name },
    });
    return open(encryptionKey, sealed);
  });
}

interface RevealRow {
  id: string;
  api_key_id: string;
  person_id: string;
  email: string;
  display_name: string;
  avatar_url: string | null;
  revealed_at: Date;
  ip_address: string | null;
  user_agent: string | null;
  cursor_at: string;
}

/** The reveal log of a key, newest first: for its owner and managers of its team (shared-with: 403). */
export async function listReveals(
  db: Db,
  personId: string,
  keyId: string,
  query: z.output<typeof PageQuery>,
): Promise<{ data: ApiKeyReveal[]; next_cursor: string | null }> {
  const key = await findVisibleKey(db, personId, keyId);
  requireManager(key, 'read its reveal log');
  const values: unknown[] = [keyId];
  let after = '';
  if (query.cursor) {
    const { instant, id } = decodeCursor(query.cursor);
    values.push(instant, id);
    after = 'AND (r.revealed_at, r.id) < ($2::timestamptz, $3)';
  }
  const { rows } = await db.query<RevealRow>(
    `SELECT r.id, r.api_key_id, r.person_id, p.email, p.display_name, p.avatar_url, r.revealed_at,
            r.ip_address, r.user_agent, ${microsecondInstant('r.revealed_at')} AS cursor_at
       FROM api_key_reveals r JOIN persons p ON p.id = r.person_id
      WHERE r.api_key_id = $1 ${after}
      ORDER BY r.revealed_at DESC, r.id DESC LIMIT ${query.limit + 1}`,
    values,
  );
  const { page, nextCursor } = splitPage(rows, query.limit, (last) => encodeCursor(last.cursor_at, last.id));
  return {
    data: page.map((r) => ({
      id: r.id,
      api_key_id: r.api_key_id,
      person: toPersonEntry({ ...r, id: r.person_id }),
      revealed_at: r.revealed_at.toISOString(),
      ip_address: r.ip_address,
      user_agent: r.user_agent,
    })),
    next_cursor: nextCursor,
  };
}
