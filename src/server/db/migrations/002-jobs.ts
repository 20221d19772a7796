import type { Migration } from '../migrate.ts';

/** Folders (workspaces), jobs, idempotency keys and the result cache. */
export const jobs: Migration = {
  id: '002-jobs',
  sql: `
CREATE TABLE workspaces (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  team_id uuid NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  name text NOT NULL,
  slug text NOT NULL,
  visibility text NOT NULL DEFAULT 'team' CHECK (visibility IN ('team', 'private')),
  created_by uuid REFERENCES persons(id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (team_id, slug)
);

CREATE TABLE jobs (
  id text PRIMARY KEY,
  team_id uuid NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  api_key_id text,
  person_id uuid,
  source text NOT NULL CHECK (source IN ('app', 'api', 'mcp', 'internal')),
  tool text NOT NULL,
  model text NOT NULL,
  status text NOT NULL CHECK (status IN ('queued', 'submitting', 'running', 'completed', 'failed', 'cancelled')),
  input jsonb NOT NULL,
  output jsonb,
  error jsonb,
  progress real,
  progress_message text,
  progress_metadata jsonb NOT NULL DEFAULT '{}',
  estimated_duration_ms integer NOT NULL,
  estimated_cost_cents bigint NOT NULL,
  actual_cost_cents bigint,
  pricing_id text NOT NULL,
  billing text NOT NULL,
  cached boolean,
  billed_units jsonb,
  provider text NOT NULL,
  provider_model text NOT NULL,
  provider_status text,
  provider_job_id text,
  folder_id uuid REFERENCES workspaces(id) ON DELETE SET NULL,
  webhook_url text,
  retry_of text REFERENCES jobs(id) ON DELETE SET NULL,
  cache_key text,
  -- Credits held for this job and not yet settled or released (0 once it is terminal).
  held_cents bigint NOT NULL DEFAULT 0 CHECK (held_cents >= 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  completed_at timestamptz
);
CREATE INDEX jobs_team_created_idx ON jobs (team_id, created_at DESC, id DESC);
CREATE INDEX jobs_team_updated_idx ON jobs (team_id, updated_at);
CREATE INDEX jobs_active_idx ON jobs (status) WHERE status IN ('queued', 'submitting', 'running');

CREATE TABLE idempotency_keys (
  team_id uuid NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  key text NOT NULL,
  request_hash bytea NOT NULL,
  job_id text REFERENCES jobs(id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (team_id, key)
);

CREATE TABLE result_cache (
  cache_key text PRIMARY KEY,
  output jsonb NOT NULL,
  billed_units jsonb,
  source_job_id text,
  created_at timestamptz NOT NULL DEFAULT now()
);
`,
};
