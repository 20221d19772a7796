import type { Services } from '../../services.ts';
import { enqueueJobWebhook } from '../webhooks/deliveries.ts';
import { type JobRow, toJob } from './job-row.ts';

/**
 * The terminal-state hook: a job with `options.webhook_url` gets one signed event for its end state
 * (the delivery is unique per job and event, so a repeated call sends nothing more).
 */
export function jobWebhookHook(services: Pick<Services, 'db' | 'boss' | 'config'>) {
  const baseUrl = `${services.config.PUBLIC_URL}/v2`;
  return async (row: JobRow): Promise<void> => {
    if (!row.webhook_url) return;
    if (row.status !== 'completed' && row.status !== 'failed' && row.status !== 'cancelled') return;
    await enqueueJobWebhook(services, {
      teamId: row.team_id,
      jobId: row.id,
      url: row.webhook_url,
      type: `job.${row.status}`,
      job: toJob(row, baseUrl),
    });
  };
}
