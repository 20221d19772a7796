import type PgBoss from 'pg-boss';
import type { WebhookEndpointEvent } from '../../../contract/webhook-endpoints.ts';
import type { Queryable } from '../../db/pool.ts';
import { queueTry } from './deliveries.ts';
import { newWebhookId } from './signature.ts';

/** Where a team event is recorded: a connection (a caller's transaction, so it commits with the cause) and the queue. */
export interface TeamEventQueue {
  db: Queryable;
  boss: PgBoss;
}

export interface TeamEventOptions {
  /** The job the event is about: one delivery per endpoint, job and type however often this is called. */
  jobId?: string;
  /**
   * When the event happened, if earlier than now: endpoints added since then do not get it (the
   * maintenance sweep sends a job's end late, and an endpoint made after the job ended never asked for it).
   */
  occurredAt?: Date;
}

/**
 * THE way an event reaches the team's webhook endpoints (issue #33): one delivery, with its first try
 * queued, for every enabled endpoint subscribed to `type`. Jobs' ends come through here (job-webhook.ts);
 * budget alerts call it with `budget.threshold_reached` and their own `data`. The body is
 * `{ type, timestamp, data }`, signed, retried and logged like a job's own webhook. A disabled endpoint
 * subscribed to `type` gets the delivery too, `stopped` and not queued: a missed event, which
 * endpoint-recovery.ts sends once the endpoint is back on and someone asks. Answers the webhook ids of
 * the deliveries it queued.
 */
export async function dispatchTeamEvent(
  q: TeamEventQueue,
  teamId: string,
  type: WebhookEndpointEvent,
  data: unknown,
  options: TeamEventOptions = {},
): Promise<string[]> {
  const payload = { type, timestamp: new Date().toISOString(), data };
  const { rows: endpoints } = await q.db.query<{ id: string; url: string; enabled: boolean }>(
    `SELECT id, url, enabled FROM webhook_endpoints
      WHERE team_id = $1 AND $2 = ANY (events) AND ($3::timestamptz IS NULL OR created_at <= $3)`,
    [teamId, type, options.occurredAt ?? null],
  );
  const queued: string[] = [];
  for (const endpoint of endpoints) {
    const { rows } = await q.db.query<{ webhook_id: string }>(
      `INSERT INTO webhook_deliveries
         (webhook_id, team_id, job_id, endpoint_id, event_type, url, payload, status, next_attempt_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, CASE WHEN $8 = 'pending' THEN now() END)
       ON CONFLICT (endpoint_id, job_id, event_type) WHERE endpoint_id IS NOT NULL AND job_id IS NOT NULL
       DO NOTHING
       RETURNING webhook_id`,
      [
        newWebhookId(),
        teamId,
        options.jobId ?? null,
        endpoint.id,
        type,
        endpoint.url,
        JSON.stringify(payload),
        endpoint.enabled ? 'pending' : 'stopped',
      ],
    );
    if (!rows[0] || !endpoint.enabled) continue;
    await queueTry(q.boss, q.db, rows[0].webhook_id, 1);
    queued.push(rows[0].webhook_id);
  }
  return queued;
}
