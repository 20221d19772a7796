import { WEBHOOK_ENDPOINT_LIMITS } from '../../../contract/webhook-endpoints.ts';
import type { Queryable } from '../../db/pool.ts';
import type { Services } from '../../services.ts';

/**
 * A team endpoint is turned off after this many deliveries in a row ended `failed` (each one after its
 * retries ran out, so about 20 events over at least a day and a half of an unreachable receiver): what
 * Stripe and Svix do, so a dead receiver does not take a share of the delivery workers forever.
 */
export const ENDPOINT_FAILURE_LIMIT = WEBHOOK_ENDPOINT_LIMITS.failuresBeforeDisable;

export interface DisabledEndpoint {
  id: string;
  teamId: string;
  url: string;
  reason: string;
}

/**
 * Records how a delivery to an endpoint ended, on the transaction that ends it: delivered resets the
 * failure streak; failed adds one, and reaching `limit` disables the endpoint; a 410 Gone disables it at
 * once (the receiver said it is gone). Answers the endpoint when this call disabled it.
 */
export async function recordEndpointOutcome(
  client: Queryable,
  endpointId: string,
  outcome: 'delivered' | 'failed' | 'gone',
  limit: number,
): Promise<DisabledEndpoint | null> {
  if (outcome === 'delivered') {
    await client.query(
      `UPDATE webhook_endpoints
          SET failure_streak = 0, last_delivery_at = now(), last_delivery_status = 'delivered'
        WHERE id = $1`,
      [endpointId],
    );
    return null;
  }
  const { rows } = await client.query<{ id: string; team_id: string; url: string; failure_streak: number }>(
    `UPDATE webhook_endpoints
        SET failure_streak = failure_streak + 1, last_delivery_at = now(), last_delivery_status = 'failed'
      WHERE id = $1
      RETURNING id, team_id, url, failure_streak, enabled`,
    [endpointId],
  );
  const row = rows[0];
  if (!row) return null;
  const reason =
    outcome === 'gone'
      ? 'The receiver answered 410 Gone, which asks senders to stop.'
      : row.failure_streak >= limit
        ? `${row.failure_streak} deliveries in a row failed (every retry included).`
        : null;
  if (!reason) return null;
  // Only the call that turns it off reports it (and mails the owners), however many tries end at once.
  const disabled = await client.query(
    `UPDATE webhook_endpoints
        SET enabled = false, disabled_reason = $2, disabled_at = now(), updated_at = now()
      WHERE id = $1 AND enabled`,
    [endpointId, reason],
  );
  return disabled.rowCount ? { id: row.id, teamId: row.team_id, url: row.url, reason } : null;
}

/** Tells the team's owners that an endpoint was turned off, why, and where to turn it back on. */
export async function mailOwnersEndpointDisabled(
  services: Pick<Services, 'db' | 'mailer' | 'config'>,
  endpoint: DisabledEndpoint,
): Promise<void> {
  const { rows } = await services.db.query<{ email: string; team_name: string }>(
    `SELECT p.email, t.name AS team_name FROM memberships m
       JOIN persons p ON p.id = m.person_id JOIN teams t ON t.id = m.team_id
      WHERE m.team_id = $1 AND m.role = 'owner'`,
    [endpoint.teamId],
  );
  for (const row of rows) {
    await services.mailer.send({
      to: row.email,
      subject: `Webhook endpoint disabled: ${endpoint.url}`,
      text: [
        `The webhook endpoint ${endpoint.url} of the team "${row.team_name}" was disabled and receives no more events.`,
        '',
        `Why: ${endpoint.reason}`,
        '',
        `Once the receiver works again, turn it back on in Settings → Webhooks: ${services.config.PUBLIC_URL}/settings`,
        `(endpoint ${endpoint.id}).`,
      ].join('\n'),
    });
  }
}
