import type { Migration } from '../migrate.ts';

/**
 * Webhooks (Standard Webhooks, api-extensions.md): each team's signing secret, one delivery per
 * (job, event) with its tries, and the URLs a receiver asked us to stop calling (410 Gone).
 */
export const webhooks: Migration = {
  id: '003-webhooks',
  sql: `
CREATE TABLE webhook_secrets (
  team_id uuid PRIMARY KEY REFERENCES teams(id) ON DELETE CASCADE,
  -- "whsec_<base64>", sealed with the application's encryption key (AES-256-GCM).
  secret_sealed bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE webhook_deliveries (
  -- The webhook-id header ("msg_<random>"): the same on every try of this event.
  webhook_id text PRIMARY KEY,
  team_id uuid NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  job_id text NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
  event_type text NOT NULL CHECK (event_type IN ('job.completed', 'job.failed', 'job.cancelled')),
  url text NOT NULL,
  -- The event body { type, timestamp, data }, fixed when the event happened.
  payload jsonb NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'delivered', 'failed', 'stopped')),
  -- Tries made (finished) so far.
  attempts int NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  -- When the next try is due; null unless pending.
  next_attempt_at timestamptz,
  last_status int,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  -- One delivery per job and event, however often the job engine reports it.
  UNIQUE (job_id, event_type)
);
CREATE INDEX webhook_deliveries_team_url_idx ON webhook_deliveries (team_id, url) WHERE status = 'pending';

CREATE TABLE webhook_attempts (
  webhook_id text NOT NULL REFERENCES webhook_deliveries(webhook_id) ON DELETE CASCADE,
  attempt int NOT NULL CHECK (attempt >= 1),
  started_at timestamptz NOT NULL DEFAULT now(),
  -- Null while the request is in flight.
  finished_at timestamptz,
  duration_ms int CHECK (duration_ms >= 0),
  -- The receiver's HTTP status, or null when no answer came (then error says why).
  response_status int,
  error text,
  -- When the retry after this try is due; null when there is none.
  next_attempt_at timestamptz,
  PRIMARY KEY (webhook_id, attempt)
);

-- A receiver that answered 410 Gone: no more deliveries to this URL for this team.
CREATE TABLE webhook_stopped_urls (
  team_id uuid NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  url text NOT NULL,
  webhook_id text,
  stopped_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (team_id, url)
);
`,
};
