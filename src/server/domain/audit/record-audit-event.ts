import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { AuditAction } from '../../../contract/audit-actions.ts';
import type { AuditActorType, AuditTargetType } from '../../../contract/audit-log.ts';
import type { Queryable } from '../../db/pool.ts';
import type { AuthContext } from '../identity/auth-context.ts';
import { auditHash } from './audit-hash.ts';

/** Where a request came from, as the audit log keeps it (made once per request: http/audit-request.ts). */
export interface AuditRequestInfo {
  address: string | null;
  userAgent: string | null;
}

/** Who acts, and from where: what every audited domain function is handed by its route or command. */
export interface AuditOrigin {
  actor: AuditActor;
  request: AuditRequestInfo | null;
}

export interface AuditActor {
  type: AuditActorType;
  personId: string | null;
  apiKeyId: string | null;
}

export interface AuditEventInput {
  teamId: string;
  action: AuditAction;
  origin: AuditOrigin;
  target?: { type: AuditTargetType; id: string } | null;
  /** What changed. Never a secret: it is shown to the team's managers and exported as CSV. */
  details?: Record<string, unknown>;
}

export interface RecordedAuditEvent {
  id: string;
  seq: number;
  hash: string;
}

const USER_AGENT_MAX = 512;
const ADDRESS_MAX = 64;

/** The actor of an authenticated call: the person, and the key when the call was made with one. */
export function actorOf(auth: Pick<AuthContext, 'personId' | 'apiKeyId'>): AuditActor {
  return {
    type: auth.personId ? 'person' : 'api_key',
    personId: auth.personId,
    apiKeyId: auth.apiKeyId,
  };
}

/** The server operator, running a command on the server (no person, no address). */
export const OPERATOR: AuditOrigin = {
  actor: { type: 'operator', personId: null, apiKeyId: null },
  request: null,
};

/** The server itself, acting on a rule (sign-up credits). */
export const SYSTEM: AuditOrigin = {
  actor: { type: 'system', personId: null, apiKeyId: null },
  request: null,
};

/**
 * Appends one event to its team's chain, in the caller's transaction (pass the transaction's client, so
 * the entry exists exactly when the action does; outside one, the append is a transaction of its own).
 *
 * The team's chain head is locked FOR UPDATE first: appends of one team queue behind it, so each entry's
 * `seq` and `prev_hash` are those of the entry committed just before it, and the chain never forks. Lock
 * it last in a transaction (after the action's own rows), so the wait is short and orders cannot cross.
 */
export async function recordAuditEvent(q: Queryable, event: AuditEventInput): Promise<RecordedAuditEvent> {
  if (q instanceof pg.Pool) {
    // A pool: one client for the whole append (a lock taken on one connection means nothing on another).
    const client = await q.connect();
    try {
      await client.query('BEGIN');
      const recorded = await append(client, event);
      await client.query('COMMIT');
      return recorded;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }
  return append(q, event);
}

async function append(q: Queryable, event: AuditEventInput): Promise<RecordedAuditEvent> {
  const teamId = event.teamId.toLowerCase();
  await q.query('INSERT INTO audit_chain_heads (team_id) VALUES ($1) ON CONFLICT DO NOTHING', [teamId]);
  const { rows } = await q.query<{ seq: number; hash: string | null; now: string }>(
    `SELECT seq, hash, to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS now
       FROM audit_chain_heads WHERE team_id = $1 FOR UPDATE`,
    [teamId],
  );
  const head = rows[0]!;
  const { actor, request } = event.origin;
  // Through JSON once, as jsonb will keep it: what is hashed is what is read back.
  const details = JSON.parse(JSON.stringify(event.details ?? {})) as Record<string, unknown>;
  const fields = {
    id: `aud_${randomBytes(10).toString('hex')}`,
    teamId,
    seq: Number(head.seq) + 1,
    occurredAt: head.now,
    actorType: actor.type,
    actorPersonId: actor.personId?.toLowerCase() ?? null,
    actorApiKeyId: actor.apiKeyId,
    action: event.action,
    targetType: event.target?.type ?? null,
    targetId: event.target?.id ?? null,
    clientAddress: request?.address?.slice(0, ADDRESS_MAX) ?? null,
    userAgent: request?.userAgent?.slice(0, USER_AGENT_MAX) ?? null,
    details,
    prevHash: head.hash,
  };
  const hash = auditHash(fields);
  await q.query(
    `INSERT INTO audit_events (id, team_id, seq, occurred_at, actor_type, actor_person_id, actor_api_key_id, action,
                               target_type, target_id, client_address, user_agent, details, prev_hash, hash)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
    [
      fields.id,
      teamId,
      fields.seq,
      fields.occurredAt,
      fields.actorType,
      fields.actorPersonId,
      fields.actorApiKeyId,
      fields.action,
      fields.targetType,
      fields.targetId,
      fields.clientAddress,
      fields.userAgent,
      JSON.stringify(details),
      fields.prevHash,
      hash,
    ],
  );
  await q.query('UPDATE audit_chain_heads SET seq = $2, hash = $3 WHERE team_id = $1', [
    teamId,
    fields.seq,
    hash,
  ]);
  return { id: fields.id, seq: fields.seq, hash };
}
