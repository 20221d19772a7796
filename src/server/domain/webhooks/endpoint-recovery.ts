import type pg from 'pg';
import {
  WEBHOOK_ENDPOINT_LIMITS,
  type WebhookEndpointRecovery,
} from '../../../contract/webhook-endpoints.ts';
import { transaction } from '../../db/pool.ts';
import { AppError } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { type DeliveryStatus, queueTry, requeueKey } from './deliveries.ts';

/**
 * Sending a team endpoint's events again (issue #33): one delivery on demand, and the events it missed
 * while it was off. Both send to the endpoint's URL as it is now (its receiver may have moved while it
 * was off; each try records where it went), with the delivery's own `webhook-id` and payload, signed
 * afresh by the worker, retried by the usual policy. Callers check the role (owners and managers).
 */

/**
 * A missed event of the endpoint `e` (a SQL alias of webhook_endpoints): a delivery `d` that was never
 * delivered because the endpoint was off (recorded `stopped` by dispatchTeamEvent, or stopped when its
 * try found the endpoint disabled, or by a 410 Gone), of a type it subscribes to now, within the window.
 */
export function missedEventSql(d: string, e: string): string {
  return `${d}.endpoint_id = ${e}.id AND ${d}.status = 'stopped' AND ${d}.event_type = ANY (${e}.events)
    AND ${d}.created_at >= now() - make_interval(days => ${WEBHOOK_ENDPOINT_LIMITS.recoverWindowDays})`;
}

type RecoveryServices = Pick<Services, 'db' | 'boss'>;

interface LockedEndpoint {
  enabled: boolean;
  url: string;
}

/**
 * The team's endpoint, locked until the transaction ends (a recovery and a redelivery of the same
 * endpoint wait for each other, and it cannot be disabled or edited meanwhile); 404 when not the team's.
 */
async function lockEndpoint(client: pg.PoolClient, teamId: string, id: string): Promise<LockedEndpoint> {
  const { rows } = await client.query<LockedEndpoint>(
    'SELECT enabled, url FROM webhook_endpoints WHERE team_id = $1 AND id = $2 FOR UPDATE',
    [teamId, id],
  );
  if (!rows[0]) throw new AppError('not_found', 'No such webhook endpoint in this team.');
  return rows[0];
}

function refuseWhileDisabled(endpoint: LockedEndpoint): void {
  if (!endpoint.enabled) {
    throw new AppError('conflict', 'This endpoint is disabled: turn it on first, then send its events.');
  }
}

/**
 * Queues the next try of one delivery of the endpoint now. 404 when the delivery is not the endpoint's,
 * 409 while it is still in progress or the endpoint is off (the try would only be stopped).
 */
export async function redeliverEndpointDelivery(
  services: RecoveryServices,
  teamId: string,
  endpointId: string,
  webhookId: string,
): Promise<{ webhook_id: string; attempt: number }> {
  return transaction(services.db, async (client) => {
    const endpoint = await lockEndpoint(client, teamId, endpointId);
    const { rows } = await client.query<{ status: DeliveryStatus; attempts: number }>(
      `SELECT status, attempts FROM webhook_deliveries
        WHERE team_id = $1 AND endpoint_id = $2 AND webhook_id = $3 FOR UPDATE`,
      [teamId, endpointId, webhookId],
    );
    const delivery = rows[0];
    if (!delivery) throw new AppError('not_found', 'No such delivery to this webhook endpoint.');
    refuseWhileDisabled(endpoint);
    if (delivery.status === 'pending') {
      throw new AppError('conflict', 'This delivery is still in progress: wait for its tries to end.');
    }
    const requeued = await client.query<{ updated_at: Date }>(
      `UPDATE webhook_deliveries
          SET status = 'pending', url = $2, next_attempt_at = now(), updated_at = clock_timestamp()
        WHERE webhook_id = $1 RETURNING updated_at`,
      [webhookId, endpoint.url],
    );
    const attempt = delivery.attempts + 1;
    await queueTry(
      services.boss,
      client,
      webhookId,
      attempt,
      undefined,
      requeueKey(requeued.rows[0]!.updated_at),
    );
    return { webhook_id: webhookId, attempt };
  });
}

/**
 * Queues the endpoint's missed events since `since` (at most the window back, the default), oldest first,
 * at most `recoverMaxPerRequest`. Each goes back to `pending` in the same statement that picks it, under
 * the endpoint's lock, so two requests never queue one event twice; a second request queues what is
 * left. 409 while the endpoint is off.
 */
export async function recoverMissedEvents(
  services: RecoveryServices,
  teamId: string,
  endpointId: string,
  since: Date | undefined,
): Promise<WebhookEndpointRecovery> {
  return transaction(services.db, async (client) => {
    const endpoint = await lockEndpoint(client, teamId, endpointId);
    refuseWhileDisabled(endpoint);
    const windowStart = await client.query<{ since: Date }>(
      `SELECT greatest($1::timestamptz, now() - make_interval(days => $2)) AS since`,
      [since ?? null, WEBHOOK_ENDPOINT_LIMITS.recoverWindowDays],
    );
    const from = windowStart.rows[0]!.since;
    const picked = `SELECT d.webhook_id FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
       WHERE e.id = $1 AND ${missedEventSql('d', 'e')} AND d.created_at >= $2`;
    const { rows } = await client.query<{ webhook_id: string; attempts: number; updated_at: Date }>(
      `UPDATE webhook_deliveries SET status = 'pending', url = $3, next_attempt_at = now(),
              updated_at = clock_timestamp()
        WHERE status = 'stopped' AND webhook_id IN (${picked} ORDER BY d.created_at, d.webhook_id LIMIT $4)
        RETURNING webhook_id, attempts, updated_at`,
      [endpointId, from, endpoint.url, WEBHOOK_ENDPOINT_LIMITS.recoverMaxPerRequest],
    );
    for (const row of rows) {
      await queueTry(
        services.boss,
        client,
        row.webhook_id,
        row.attempts + 1,
        undefined,
        requeueKey(row.updated_at),
      );
    }
    const left = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM (${picked}) missed`, [
      endpointId,
      from,
    ]);
    return { queued: rows.length, remaining: left.rows[0]!.n, since: from.toISOString() };
  });
}
