import type { Migration } from '../migrate.ts';

/**
 * Webhook tools (issue #33): a team endpoint's redelivery and its recovery of missed events send to the
 * endpoint's URL as it is now (its receiver may have moved while it was off), so a delivery's URL can
 * change between tries. Each try records the URL it went to, and the log shows that one rather than the
 * delivery's latest. Tries made before this migration read the delivery's URL (it never changed then).
 */
export const webhookAttemptUrl: Migration = {
  id: '030-webhook-attempt-url',
  sql: `
ALTER TABLE webhook_attempts ADD COLUMN url text;

-- The missed events of an endpoint (deliveries stopped before they were delivered), oldest first.
CREATE INDEX webhook_deliveries_endpoint_stopped_idx ON webhook_deliveries (endpoint_id, created_at)
  WHERE endpoint_id IS NOT NULL AND status = 'stopped';
`,
};
