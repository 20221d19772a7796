import { transaction } from '../../db/pool.ts';
import type { Services } from '../../services.ts';
import { enqueueJobWebhook } from '../webhooks/deliveries.ts';
import { dispatchTeamEvent } from '../webhooks/team-events.ts';
import { type JobRow, toJob } from './job-row.ts';

/**
 * The terminal-state hook: a job with `options.webhook_url` gets one signed event for its end state, and
 * so does every team endpoint subscribed to it (a disabled one records it as missed). Each delivery is
 * unique per job, event and receiver, so a repeated call sends nothing more.
 */
export function jobWebhookHook(services: Pick<Services, 'db' | 'boss' | 'config'>) {
  const baseUrl = `${services.config.PUBLIC_URL}/v2`;
  return async (row: JobRow): Promise<void> => {
    if (row.status !== 'completed' && row.status !== 'failed' && row.status !== 'cancelled') return;
    const type = `job.${row.status}` as const;
    const job = toJob(row, baseUrl);
    if (row.webhook_url) {
      await enqueueJobWebhook(services, {
        teamId: row.team_id,
        jobId: row.id,
        url: row.webhook_url,
        type,
        job,
      });
    }
    // The endpoints' deliveries and their first tries commit together.
    await transaction(services.db, (client) =>
      dispatchTeamEvent({ db: client, boss: services.boss }, row.team_id, type, job, {
        jobId: row.id,
        occurredAt: row.completed_at ?? undefined,
      }),
    );
  };
}

/**
 * Finished jobs whose end event was never recorded for a receiver (the hook failed after the job's end had
 * committed: the database away for a moment) get it now: their own `webhook_url`, and each team endpoint
 * that was subscribed to the event when the job ended. The last day is looked through, but not the last
 * minute, whose hooks may still be under way; an event recorded meanwhile is not sent twice (a delivery is
 * unique per job, event and receiver). Answers the jobs whose events this recorded.
 */
export async function enqueueMissedWebhooks(
  services: Pick<Services, 'db' | 'boss' | 'config'>,
): Promise<string[]> {
  const { rows: ownUrl } = await services.db.query<JobRow>(
    `SELECT j.* FROM jobs j
      WHERE j.webhook_url IS NOT NULL
        AND j.completed_at > now() - interval '1 day' AND j.completed_at < now() - interval '1 minute'
        AND j.status IN ('completed', 'failed', 'cancelled')
        AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.job_id = j.id AND d.event_type = 'job.' || j.status
                          AND d.endpoint_id IS NULL)
      ORDER BY j.completed_at
      LIMIT 500`,
  );
  // Only teams with endpoints are looked at, through their recent updates (a job's end updates it).
  const { rows: endpoints } = await services.db.query<JobRow>(
    `SELECT j.* FROM jobs j
      WHERE j.team_id IN (SELECT team_id FROM webhook_endpoints)
        AND j.updated_at > now() - interval '1 day'
        AND j.completed_at > now() - interval '1 day' AND j.completed_at < now() - interval '1 minute'
        AND j.status IN ('completed', 'failed', 'cancelled')
        AND EXISTS (
          SELECT 1 FROM webhook_endpoints e
           WHERE e.team_id = j.team_id AND 'job.' || j.status = ANY (e.events) AND e.created_at <= j.completed_at
             AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d
                              WHERE d.endpoint_id = e.id AND d.job_id = j.id AND d.event_type = 'job.' || j.status))
      ORDER BY j.completed_at
      LIMIT 500`,
  );
  const missed = new Map([...ownUrl, ...endpoints].map((row) => [row.id, row]));
  const send = jobWebhookHook(services);
  for (const row of missed.values()) await send(row);
  return [...missed.keys()];
}
