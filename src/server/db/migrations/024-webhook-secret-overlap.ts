import type { Migration } from '../migrate.ts';

/**
 * Rotating the webhook secret with an overlap (issue #33): the secret it replaced stays, sealed, until
 * `previous_expires_at`, and every webhook sent before then carries a signature under each of the two.
 */
export const webhookSecretOverlap: Migration = {
  id: '024-webhook-secret-overlap',
  sql: `
ALTER TABLE webhook_secrets
  ADD COLUMN previous_secret_sealed bytea,
  ADD COLUMN previous_expires_at timestamptz;
`,
};
