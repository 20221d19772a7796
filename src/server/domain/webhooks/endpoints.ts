import { randomBytes } from 'node:crypto';
import type { TeamRole } from '../../../contract/account.ts';
import {
  WEBHOOK_ENDPOINT_LIMITS,
  type WebhookEndpoint,
  type WebhookEndpointEvent,
} from '../../../contract/webhook-endpoints.ts';
import { type Db, type Queryable, transaction } from '../../db/pool.ts';
import { AppError } from '../../errors.ts';
import { isManagerRole } from '../identity/team.ts';
import { missedEventSql } from './endpoint-recovery.ts';

/** One home for a team's webhook endpoints (issue #33): read by every member, changed by managers. */

interface EndpointRow {
  id: string;
  url: string;
  description: string;
  events: WebhookEndpointEvent[];
  enabled: boolean;
  disabled_reason: string | null;
  disabled_at: Date | null;
  failure_streak: number;
  last_delivery_at: Date | null;
  last_delivery_status: 'delivered' | 'failed' | null;
  missed_events: number;
  created_at: Date;
  updated_at: Date;
}

// Every query names the table webhook_endpoints (no alias): the count of missed events refers to it.
const COLUMNS = `id, url, description, events, enabled, disabled_reason, disabled_at, failure_streak,
  last_delivery_at, last_delivery_status, created_at, updated_at,
  (SELECT count(*)::int FROM webhook_deliveries d WHERE ${missedEventSql('d', 'webhook_endpoints')}) AS missed_events`;

function toWire(r: EndpointRow): WebhookEndpoint {
  return {
    id: r.id,
    url: r.url,
    description: r.description,
    events: r.events,
    enabled: r.enabled,
    disabled_reason: r.disabled_reason,
    disabled_at: r.disabled_at?.toISOString() ?? null,
    failure_streak: r.failure_streak,
    last_delivery_at: r.last_delivery_at?.toISOString() ?? null,
    last_delivery_status: r.last_delivery_status,
    missed_events: r.missed_events,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  };
}

export function assertCanManageEndpoints(role: TeamRole | null): void {
  if (!isManagerRole(role)) {
    throw new AppError('forbidden', 'Only owners and managers of the team can change webhook endpoints.');
  }
}

export async function listEndpoints(db: Queryable, teamId: string): Promise<WebhookEndpoint[]> {
  const { rows } = await db.query<EndpointRow>(
    `SELECT ${COLUMNS} FROM webhook_endpoints WHERE team_id = $1 ORDER BY created_at, id`,
    [teamId],
  );
  return rows.map(toWire);
}

export async function getEndpoint(db: Queryable, teamId: string, id: string): Promise<WebhookEndpoint> {
  const { rows } = await db.query<EndpointRow>(
    `SELECT ${COLUMNS} FROM webhook_endpoints WHERE team_id = $1 AND id = $2`,
    [teamId, id],
  );
  if (!rows[0]) throw new AppError('not_found', 'No such webhook endpoint in this team.');
  return toWire(rows[0]);
}

export interface EndpointInput {
  url: string;
  description: string;
  events: WebhookEndpointEvent[];
  enabled: boolean;
}

export async function createEndpoint(db: Db, teamId: string, input: EndpointInput): Promise<WebhookEndpoint> {
  return transaction(db, async (client) => {
    // The team's row is the lock that keeps two concurrent creations from both passing the limit.
    await client.query('SELECT 1 FROM teams WHERE id = $1 FOR UPDATE', [teamId]);
    const count = await client.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM webhook_endpoints WHERE team_id = $1',
      [teamId],
    );
    if (count.rows[0]!.n >= WEBHOOK_ENDPOINT_LIMITS.perTeam) {
      throw new AppError(
        'conflict',
        `A team has at most ${WEBHOOK_ENDPOINT_LIMITS.perTeam} webhook endpoints: delete one first.`,
      );
    }
    const { rows } = await client.query<EndpointRow>(
      `INSERT INTO webhook_endpoints (id, team_id, url, description, events, enabled)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${COLUMNS}`,
      [
        `we_${randomBytes(12).toString('hex')}`,
        teamId,
        input.url,
        input.description,
        input.events,
        input.enabled,
      ],
    );
    return toWire(rows[0]!);
  });
}

/**
 * Changes the fields given. Turning an endpoint on clears what its disabling left (the reason, the
 * streak), so it gets a full run of failures again before the next disabling.
 */
export async function updateEndpoint(
  db: Queryable,
  teamId: string,
  id: string,
  patch: Partial<EndpointInput>,
): Promise<WebhookEndpoint> {
  const { rows } = await db.query<EndpointRow>(
    `UPDATE webhook_endpoints SET
       url = coalesce($3, url),
       description = coalesce($4, description),
       events = coalesce($5, events),
       enabled = coalesce($6, enabled),
       disabled_reason = CASE WHEN $6::boolean IS NOT NULL THEN NULL ELSE disabled_reason END,
       disabled_at = CASE WHEN $6::boolean = false AND enabled THEN now()
                          WHEN $6::boolean = true THEN NULL ELSE disabled_at END,
       failure_streak = CASE WHEN $6::boolean = true AND NOT enabled THEN 0 ELSE failure_streak END,
       updated_at = now()
     WHERE team_id = $1 AND id = $2
     RETURNING ${COLUMNS}`,
    [teamId, id, patch.url ?? null, patch.description ?? null, patch.events ?? null, patch.enabled ?? null],
  );
  if (!rows[0]) throw new AppError('not_found', 'No such webhook endpoint in this team.');
  return toWire(rows[0]);
}

export async function deleteEndpoint(db: Queryable, teamId: string, id: string): Promise<void> {
  const deleted = await db.query('DELETE FROM webhook_endpoints WHERE team_id = $1 AND id = $2', [
    teamId,
    id,
  ]);
  if (!deleted.rowCount) throw new AppError('not_found', 'No such webhook endpoint in this team.');
}
