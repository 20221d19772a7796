import { transaction } from '../../db/pool.ts';
import { AppError } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { type DeliveryStatus, queueTry, requeueKey } from './deliveries.ts';

/**
 * Sends a job's latest webhook event again, on demand (issue #33): the next try of the same delivery, with
 * the same `webhook-id` (receivers deduplicate on it) and the same payload, signed afresh. If it fails, the
 * retry policy's remaining tries follow. Asking is the user saying the receiver works again, so a 410 stop
 * on that URL is lifted. 404 when the job had no webhook, 409 while a delivery is still in progress.
 */
export async function redeliverJobWebhook(
  services: Pick<Services, 'db' | 'boss'>,
  teamId: string,
  jobId: string,
): Promise<{ webhookId: string; attempt: number }> {
  return transaction(services.db, async (client) => {
    const { rows } = await client.query<{
      webhook_id: string;
      url: string;
      status: DeliveryStatus;
      attempts: number;
    }>(
      `SELECT webhook_id, url, status, attempts FROM webhook_deliveries
        WHERE team_id = $1 AND job_id = $2 AND endpoint_id IS NULL
        ORDER BY created_at DESC LIMIT 1 FOR UPDATE`,
      [teamId, jobId],
    );
    const delivery = rows[0];
    if (!delivery) throw new AppError('not_found', 'This job has no webhook to send again.');
    if (delivery.status === 'pending') {
      throw new AppError('conflict', 'This webhook is still being delivered: wait for its tries to end.');
    }
    const attempt = delivery.attempts + 1;
    await client.query('DELETE FROM webhook_stopped_urls WHERE team_id = $1 AND url = $2', [
      teamId,
      delivery.url,
    ]);
    const requeued = await client.query<{ updated_at: Date }>(
      `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = now(), updated_at = clock_timestamp()
        WHERE webhook_id = $1 RETURNING updated_at`,
      [delivery.webhook_id],
    );
    // A delivery stopped on its way (its queued try ran and found the URL stopped) had this try queued
    // once already, and pg-boss keeps that job: this queueing gets an id of its own.
    await queueTry(
      services.boss,
      client,
      delivery.webhook_id,
      attempt,
      undefined,
      requeueKey(requeued.rows[0]!.updated_at),
    );
    return { webhookId: delivery.webhook_id, attempt };
  });
}
