import { randomBytes } from 'node:crypto';
import type { TeamRole } from '../../../contract/account.ts';
import { listenForNotifications } from '../../db/notifications.ts';
import type { Queryable } from '../../db/pool.ts';
import { TtlCache } from '../ttl-cache.ts';
import { displayParts, generateApiKey, hashApiKey, isWellFormedApiKey } from './api-key-format.ts';
import { type KeyRestrictions, type RestrictionColumns, restrictionsOf } from './key-restrictions.ts';
import { KEY_CHANGES_CHANNEL } from './key-revocation.ts';
import { open, seal } from './sealed-box.ts';

export interface ApiKeyPrincipal {
  apiKeyId: string;
  teamId: string;
  personId: string | null;
  /** The owner's role in the key's team (null for a key with no person, or one who left the team). */
  role: TeamRole | null;
  /** Epoch ms after which the key answers 401 `api_key_expired`; null: never. Checked at each use. */
  expiresAt: number | null;
  /** What the key may do (key-restrictions.ts). */
  restrictions: KeyRestrictions;
  /**
   * Set when the token is a key's previous secret, kept valid after a rotation: epoch ms after which it
   * answers 401 like an unknown key (cached lookups included).
   */
  graceEndsAt: number | null;
}

/** Whether a resolved key has expired by now (cached lookups included: the check is at use, not at read). */
export function isExpired(principal: ApiKeyPrincipal, now = Date.now()): boolean {
  return principal.expiresAt !== null && now >= principal.expiresAt;
}

/** A replaced secret whose grace has ended is no key at all. */
function graceOver(principal: ApiKeyPrincipal | null | undefined, now = Date.now()): boolean {
  return principal?.graceEndsAt != null && now >= principal.graceEndsAt;
}

/** Restrictions as a request gives them: each may be left out (undefined) or lifted (null). */
export type RestrictionInput = {
  [K in keyof RestrictionColumns]?: RestrictionColumns[K] | null | undefined;
};

export interface CreatedApiKey {
  id: string;
  secret: string;
}

export async function createApiKey(
  db: Queryable,
  encryptionKey: Buffer,
  input: {
    teamId: string;
    personId: string | null;
    name: string;
    revealable: boolean;
    isDefault?: boolean;
    expiresAt?: string | null;
    restrictions?: RestrictionInput;
    /** A team-owned service key: `personId` must be null; `createdBy` says who made it. */
    service?: boolean;
    createdBy?: string | null;
  },
): Promise<CreatedApiKey> {
  const secret = generateApiKey();
  const id = `key_${randomBytes(8).toString('hex')}`;
  const { start, last4 } = displayParts(secret);
  const r = input.restrictions ?? {};
  await db.query(
    `INSERT INTO api_keys (id, team_id, owner_person_id, name, secret_hash, start, last4, revealable, secret_encrypted,
                           is_default, expires_at, allowed_tools, allowed_models, allowed_ips, read_only,
                           rate_limit_per_minute, max_concurrent_jobs, is_service, created_by_person_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)`,
    [
      id,
      input.teamId,
      input.personId,
      input.name,
      hashApiKey(secret),
      start,
      last4,
      input.revealable,
      input.revealable ? seal(encryptionKey, secret) : null,
      input.isDefault ?? false,
      input.expiresAt ?? null,
      r.allowed_tools ?? null,
      r.allowed_models ?? null,
      r.allowed_ips ?? null,
      r.read_only ?? false,
      r.rate_limit_per_minute ?? null,
      r.max_concurrent_jobs ?? null,
      input.service ?? false,
      input.createdBy ?? input.personId,
    ],
  );
  return { id, secret };
}

/** The person's active default key in a team, decrypted (default keys are revealable), or null. */
export async function findDefaultKeySecret(
  db: Queryable,
  encryptionKey: Buffer,
  personId: string,
  teamId: string,
): Promise<string | null> {
  const { rows } = await db.query<{ secret_encrypted: Buffer | null }>(
    `SELECT secret_encrypted FROM api_keys
      WHERE owner_person_id = $1 AND team_id = $2 AND is_default AND revoked_at IS NULL`,
    [personId, teamId],
  );
  const sealed = rows[0]?.secret_encrypted;
  return sealed ? open(encryptionKey, sealed) : null;
}

/** How often each process asks the database which keys changed (revoked, or their owner's role). */
const CHANGE_CHECK_MS = 1_000;
/** Changes older than this cannot sit in any cache (entries live 10 s), so they need no eviction. */
const CHANGE_LOOKBACK = '15 seconds';

/**
 * Resolves Bearer API keys to their principal. Lookups are cached for 10 s (a request storm costs one
 * query per key). A revoked key stops working at once in the process that revoked it (`forget`), and in
 * every other process that `listen`s as soon as the change commits (a PostgreSQL notification). Without
 * that connection the bound is a second: before answering from its cache, a process asks, at most once a
 * second and only while it serves keys, which keys were marked changed lately (`api_keys.changed_at`,
 * indexed), and evicts them.
 */
export class ApiKeyResolver {
  private readonly cache = new TtlCache<ApiKeyPrincipal | null>(10_000);
  private readonly lastUsedWrites = new TtlCache<true>(60_000);
  private nextChangeCheck = 0;
  private changeCheck: Promise<void> | null = null;
  /** Counts evictions, so a lookup that raced one is not cached. */
  private generation = 0;

  constructor(private readonly db: Queryable) {}

  async resolve(token: string): Promise<ApiKeyPrincipal | null> {
    const check = this.evictChanged();
    if (check) await check;
    // Cached by the token itself, not its hash: hashing every request was half of a cached lookup's cost.
    // Only well-formed tokens are ever stored, so a hit needs no checksum either.
    const cached = this.cachedPrincipal(token);
    if (cached !== undefined) return graceOver(cached) ? null : cached;
    if (!isWellFormedApiKey(token)) return null;
    const generation = this.generation;
    // The current secret, or the previous one of a rotated key while its grace lasts.
    const { rows } = await this.db.query<
      RestrictionColumns & {
        id: string;
        team_id: string;
        owner_person_id: string | null;
        role: TeamRole | null;
        expires_at: Date | null;
        grace_ends_at: Date | null;
      }
    >(
      `SELECT k.id, k.team_id, k.owner_person_id, m.role, k.expires_at,
              k.allowed_tools, k.allowed_models, k.allowed_ips, k.read_only, k.rate_limit_per_minute,
              k.max_concurrent_jobs,
              CASE WHEN k.secret_hash = $1 THEN NULL ELSE k.previous_secret_expires_at END AS grace_ends_at
         FROM api_keys k LEFT JOIN memberships m ON m.team_id = k.team_id AND m.person_id = k.owner_person_id
        WHERE (k.secret_hash = $1 OR (k.previous_secret_hash = $1 AND k.previous_secret_expires_at > now()))
          AND k.revoked_at IS NULL`,
      [hashApiKey(token)],
    );
    const row = rows[0];
    const principal: ApiKeyPrincipal | null = row
      ? {
          apiKeyId: row.id,
          teamId: row.team_id,
          personId: row.owner_person_id,
          role: row.role,
          expiresAt: row.expires_at?.getTime() ?? null,
          restrictions: restrictionsOf(row),
          graceEndsAt: row.grace_ends_at?.getTime() ?? null,
        }
      : null;
    // A key changed while this read was under way may have been read before the change: not kept.
    if (generation === this.generation) this.cache.set(token, principal);
    if (principal) this.touch(principal.apiKeyId);
    return principal;
  }

  /**
   * The principal of a valid key whose lookup is cached and needs no change check first: what resolve()
   * would answer without waiting. Undefined otherwise (unknown, invalid or revoked key, or a check due),
   * for the caller to take the full path.
   */
  resolveCached(token: string): ApiKeyPrincipal | undefined {
    if (this.changeCheck || Date.now() >= this.nextChangeCheck) return undefined;
    const principal = this.cachedPrincipal(token);
    // An expired key takes the full path, which answers 401 api_key_expired; so does a replaced secret
    // (its grace may end), and a key checked per request (its address, its rate), which only the full
    // path knows how to check.
    if (!principal || isExpired(principal) || principal.graceEndsAt !== null) return undefined;
    const r = principal.restrictions;
    return r.allowedIps === null && r.ratePerMinute === null ? principal : undefined;
  }

  private cachedPrincipal(token: string): ApiKeyPrincipal | null | undefined {
    const cached = this.cache.get(token);
    if (cached) this.touch(cached.apiKeyId);
    return cached;
  }

  forget(apiKeyId: string): void {
    this.generation++;
    this.cache.deleteWhere((p) => p?.apiKeyId === apiKeyId);
  }

  /**
   * Drops cached lookups of keys changed by any process as their notifications arrive, on a connection of
   * its own (reconnected after a second when lost; a check of `changed_at` follows each connect, so what
   * changed meanwhile is evicted too). Answers a function that stops listening.
   */
  listen(connectionString: string): Promise<() => Promise<void>> {
    return listenForNotifications(
      connectionString,
      KEY_CHANGES_CHANNEL,
      (apiKeyId) => this.forget(apiKeyId),
      () => {
        this.nextChangeCheck = 0;
      },
    );
  }

  /** One check at a time; concurrent requests wait for the same one. Nothing to wait for between checks. */
  private evictChanged(): Promise<void> | null {
    if (this.changeCheck) return this.changeCheck;
    if (Date.now() < this.nextChangeCheck) return null;
    this.nextChangeCheck = Date.now() + CHANGE_CHECK_MS;
    this.changeCheck = this.db
      .query<{ id: string }>(
        `SELECT id FROM api_keys WHERE changed_at > now() - interval '${CHANGE_LOOKBACK}'`,
      )
      .then(({ rows }) => {
        for (const row of rows) this.forget(row.id);
      })
      .catch(() => {
        this.generation++;
        this.cache.deleteWhere(() => true); // cannot tell what changed: trust nothing cached
      })
      .finally(() => {
        this.changeCheck = null;
      });
    return this.changeCheck;
  }

  /** Records last use at most once a minute per key, off the request's path. */
  private touch(apiKeyId: string): void {
    if (this.lastUsedWrites.get(apiKeyId)) return;
    this.lastUsedWrites.set(apiKeyId, true);
    this.db.query('UPDATE api_keys SET last_used_at = now() WHERE id = $1', [apiKeyId]).catch(() => {});
  }
}
