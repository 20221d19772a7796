import type { z } from 'zod';
import type { ApiKey, CreatedApiKey, UpdateApiKeyRequest } from '../../../contract/api-keys.ts';
import type { FieldIssue } from '../../../contract/errors.ts';
import { type Db, transaction } from '../../db/pool.ts';
import { AppError } from '../../errors.ts';
import { type AuditOrigin, recordAuditEvent } from '../audit/record-audit-event.ts';
import { setKeySpendLimit } from '../budgets/key-spend-limit.ts';
import { displayParts, generateApiKey, hashApiKey } from './api-key-format.ts';
import type { ApiKeyResolver, RestrictionInput } from './api-keys.ts';
import { findVisibleKey, requireManager } from './key-records.ts';
import { normaliseCidr } from './key-restrictions.ts';
import { evictKeys, markKeyChanged } from './key-revocation.ts';
import { seal } from './sealed-box.ts';

/** What resolves model references: the catalog (or a test's stand-in). */
export interface ModelResolver {
  resolve(reference: string): { model: { id: string } } | null;
}

function unique<T>(values: readonly T[]): T[] {
  return [...new Set(values)];
}

/**
 * Restrictions as they are stored: models as the catalog's ids (an unknown one is 422, naming its entry),
 * addresses as normalised CIDRs, lists without repeats. Fields not given stay undefined (an edit leaves
 * them), null stays null (no restriction).
 */
export function normaliseRestrictions(catalog: ModelResolver, input: RestrictionInput): RestrictionInput {
  const out: RestrictionInput = { ...input };
  const bad: FieldIssue[] = [];
  if (input.allowed_models) {
    out.allowed_models = unique(
      input.allowed_models.map((reference, index) => {
        const resolved = catalog.resolve(reference);
        if (!resolved) {
          bad.push({
            field: `allowed_models.${index}`,
            message: `No model \`${reference}\` in the catalog (GET /v2/models lists them).`,
            code: 'custom',
          });
        }
        return resolved?.model.id ?? reference;
      }),
    );
  }
  if (input.allowed_ips) {
    out.allowed_ips = unique(
      input.allowed_ips.map((entry, index) => {
        const cidr = normaliseCidr(entry);
        if (!cidr) {
          bad.push({
            field: `allowed_ips.${index}`,
            message: `\`${entry}\` is not an IPv4 or IPv6 address or CIDR.`,
            code: 'custom',
          });
        }
        return cidr ?? entry;
      }),
    );
  }
  if (input.allowed_tools) out.allowed_tools = unique(input.allowed_tools);
  if (bad.length) {
    throw new AppError(
      'invalid_request',
      `Invalid request: ${bad.map((f) => `${f.field}: ${f.message}`).join('; ')}`,
      { status: 422, details: { fields: bad } },
    );
  }
  return out;
}

/** The columns an edit may set, by request field. */
const EDITABLE = [
  'name',
  'expires_at',
  'allowed_tools',
  'allowed_models',
  'allowed_ips',
  'read_only',
  'rate_limit_per_minute',
  'max_concurrent_jobs',
] as const;

/**
 * Edits a key (its owner or a manager of its team), in one transaction that marks it changed, then drops
 * cached lookups here (other processes on the notification): the key's next request sees the edit.
 */
export async function updateKey(
  db: Db,
  resolver: ApiKeyResolver,
  catalog: ModelResolver,
  personId: string,
  keyId: string,
  body: z.output<typeof UpdateApiKeyRequest>,
  origin: AuditOrigin,
): Promise<ApiKey> {
  const input = normaliseRestrictions(catalog, body);
  const edit: Record<string, unknown> = { ...body, ...input };
  // read_only is a flag: null means "not read-only".
  if (edit.read_only === null) edit.read_only = false;
  const { record, changed } = await transaction(db, async (tx) => {
    const key = await findVisibleKey(tx, personId, keyId, { forUpdate: true });
    requireManager(key, 'edit it');
    if (key.revoked) throw new AppError('conflict', 'This key is revoked; it cannot be edited.');
    const values: unknown[] = [keyId];
    const sets = EDITABLE.filter((field) => edit[field] !== undefined).map(
      (field) => `${field} = $${values.push(edit[field])}`,
    );
    // The spend limit is a hidden cap budget on the key, changed in the same transaction as the rest.
    if (body.spend_limit !== undefined) {
      const { rows } = await tx.query<{ team_id: string }>('SELECT team_id FROM api_keys WHERE id = $1', [
        keyId,
      ]);
      await setKeySpendLimit(tx, rows[0]!.team_id, keyId, body.spend_limit);
    }
    if (!sets.length && body.spend_limit === undefined) return { record: key.record, changed: [] };
    if (sets.length) await tx.query(`UPDATE api_keys SET ${sets.join(', ')} WHERE id = $1`, values);
    const after = (await findVisibleKey(tx, personId, keyId)).record;
    await recordAuditEvent(tx, {
      teamId: after.team_id,
      action: 'api_key.edited',
      origin,
      target: { type: 'api_key', id: keyId },
      details: { name: after.name, changes: changesBetween(key.record, after) },
    });
    return { record: after, changed: await markKeyChanged(tx, keyId) };
  });
  evictKeys(resolver, changed);
  return record;
}

/**
 * Replaces a key's secret. With a grace, the old secret's hash moves to `previous_secret_hash` and keeps
 * working until then (resolve() takes either); without, it stops at once. A second rotation replaces the
 * first's previous secret. The new secret is sealed again for a revealable key.
 */
export async function rotateKey(
  db: Db,
  resolver: ApiKeyResolver,
  encryptionKey: Buffer,
  personId: string,
  keyId: string,
  graceSeconds: number,
  origin: AuditOrigin,
): Promise<z.output<typeof CreatedApiKey>> {
  const secret = generateApiKey();
  const { start, last4 } = displayParts(secret);
  const { record, changed } = await transaction(db, async (tx) => {
    const key = await findVisibleKey(tx, personId, keyId, { forUpdate: true });
    requireManager(key, 'rotate it');
    if (key.revoked) throw new AppError('conflict', 'This key is revoked; it cannot be rotated.');
    await tx.query(
      `UPDATE api_keys
          SET previous_secret_hash = CASE WHEN $2::int > 0 THEN secret_hash END,
              previous_secret_expires_at = CASE WHEN $2::int > 0 THEN now() + make_interval(secs => $2::int) END,
              secret_hash = $3, start = $4, last4 = $5,
              secret_encrypted = CASE WHEN revealable THEN $6::bytea END,
              rotated_at = now()
        WHERE id = $1`,
      [keyId, graceSeconds, hashApiKey(secret), start, last4, seal(encryptionKey, secret)],
    );
    const after = (await findVisibleKey(tx, personId, keyId)).record;
    await recordAuditEvent(tx, {
      teamId: after.team_id,
      action: 'api_key.rotated',
      origin,
      target: { type: 'api_key', id: keyId },
      details: {
        name: after.name,
        grace_seconds: graceSeconds,
        grace_until: after.previous_secret_expires_at,
      },
    });
    return { record: after, changed: await markKeyChanged(tx, keyId) };
  });
  evictKeys(resolver, changed);
  return { api_key: secret, key: record };
}

/** The key's fields an edit changed, each `{ from, to }` (what the audit log keeps; never a secret). */
function changesBetween(before: ApiKey, after: ApiKey): Record<string, { from: unknown; to: unknown }> {
  const changes: Record<string, { from: unknown; to: unknown }> = {};
  for (const field of [...EDITABLE, 'spend_limit'] as const) {
    const from = before[field as keyof ApiKey] ?? null;
    const to = after[field as keyof ApiKey] ?? null;
    if (JSON.stringify(from) !== JSON.stringify(to)) changes[field] = { from, to };
  }
  return changes;
}
