import { createHash } from 'node:crypto';

/**
 * The hash of an audit entry: SHA-256 (hex) of its fields and the previous entry's hash, written as one
 * JSON array in a fixed order. Every field is text (or null) exactly as PostgreSQL gives it back (the
 * instant to the microsecond, `details` with its keys sorted), so the verifier, reading the rows again,
 * computes the same hash the appender did, and a change of any one field shows.
 */
export interface HashedFields {
  id: string;
  teamId: string;
  seq: number;
  occurredAt: string;
  actorType: string;
  actorPersonId: string | null;
  actorApiKeyId: string | null;
  action: string;
  targetType: string | null;
  targetId: string | null;
  clientAddress: string | null;
  userAgent: string | null;
  details: unknown;
  prevHash: string | null;
}

/** JSON with object keys sorted at every level: one text for one value, whatever order jsonb keeps. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function auditHash(f: HashedFields): string {
  const text = JSON.stringify([
    'audit-v1',
    f.id,
    f.teamId,
    String(f.seq),
    f.occurredAt,
    f.actorType,
    f.actorPersonId,
    f.actorApiKeyId,
    f.action,
    f.targetType,
    f.targetId,
    f.clientAddress,
    f.userAgent,
    canonicalJson(f.details),
    f.prevHash,
  ]);
  return createHash('sha256').update(text).digest('hex');
}
