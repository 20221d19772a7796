import type { Migration } from '../migrate.ts';

/**
 * Finished jobs with a webhook, by when they finished: the maintenance sweep looks through the last day
 * of them for an event that was never enqueued (job-webhook.ts `enqueueMissedWebhooks`).
 */
export const webhookSweepIndex: Migration = {
  id: '016-webhook-sweep-index',
  sql: `CREATE INDEX jobs_webhook_sweep_idx ON jobs (completed_at) WHERE webhook_url IS NOT NULL;`,
};
