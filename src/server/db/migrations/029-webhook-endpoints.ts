import type { Migration } from '../migrate.ts';

/**
 * Webhook tools (issue #33): what each try sent and got back (the delivery log), and team-level webhook
 * endpoints that receive the events of every job of the team (and budget alerts), each disabled after a
 * run of failed deliveries.
 */
export const webhookEndpoints: Migration = {
  id: '029-webhook-endpoints',
  sql: `
-- The request as sent (headers with the signatures: never the secret) and the answer, both bodies cut to
-- their first bytes (domain/webhooks/delivery-log.ts says how many).
ALTER TABLE webhook_attempts
  ADD COLUMN request_headers jsonb,
  ADD COLUMN request_body text,
  ADD COLUMN request_body_truncated boolean NOT NULL DEFAULT false,
  ADD COLUMN response_headers jsonb,
  ADD COLUMN response_body text,
  ADD COLUMN response_body_truncated boolean NOT NULL DEFAULT false;

CREATE TABLE webhook_endpoints (
  id text PRIMARY KEY,
  team_id uuid NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  url text NOT NULL,
  description text NOT NULL DEFAULT '',
  events text[] NOT NULL,
  enabled boolean NOT NULL DEFAULT true,
  -- Why the server turned it off (a run of failures, a 410 Gone); null when a person did, or it is on.
  disabled_reason text,
  disabled_at timestamptz,
  -- Deliveries that ended failed in a row since the last one delivered.
  failure_streak int NOT NULL DEFAULT 0 CHECK (failure_streak >= 0),
  last_delivery_at timestamptz,
  last_delivery_status text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_endpoints_team_idx ON webhook_endpoints (team_id, created_at);

-- A delivery to a team endpoint names it; a team event (a budget alert) has no job.
ALTER TABLE webhook_deliveries
  ADD COLUMN endpoint_id text REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
  ALTER COLUMN job_id DROP NOT NULL,
  DROP CONSTRAINT webhook_deliveries_event_type_check,
  ADD CONSTRAINT webhook_deliveries_event_type_check
    CHECK (event_type IN ('job.completed', 'job.failed', 'job.cancelled', 'budget.threshold_reached')),
  DROP CONSTRAINT webhook_deliveries_job_id_event_type_key;
-- Still one delivery per job and event to the job's own webhook_url, and one per endpoint.
CREATE UNIQUE INDEX webhook_deliveries_job_event_idx ON webhook_deliveries (job_id, event_type)
  WHERE endpoint_id IS NULL;
CREATE UNIQUE INDEX webhook_deliveries_endpoint_job_event_idx
  ON webhook_deliveries (endpoint_id, job_id, event_type) WHERE endpoint_id IS NOT NULL AND job_id IS NOT NULL;
CREATE INDEX webhook_deliveries_endpoint_idx ON webhook_deliveries (endpoint_id, created_at DESC)
  WHERE endpoint_id IS NOT NULL;
`,
};
