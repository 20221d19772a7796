import type { Migration } from '../migrate.ts';

/**
 * Restricted keys (issue #31): what a key may run (tools, models), from where (addresses), whether it may
 * change anything, how fast (requests a minute, jobs at once); team-owned service keys, which belong to no
 * person and so outlive the member who made them; and rotation, where the replaced secret stays valid
 * until `previous_secret_expires_at`. Null lists and limits mean "no restriction".
 *
 * The partial index on jobs serves the concurrency cap, which counts a key's unfinished jobs on every
 * creation by a capped key.
 */
export const keyRestrictions: Migration = {
  id: '025-key-restrictions',
  sql: `
ALTER TABLE api_keys
  ADD COLUMN allowed_tools text[],
  ADD COLUMN allowed_models text[],
  ADD COLUMN allowed_ips text[],
  ADD COLUMN read_only boolean NOT NULL DEFAULT false,
  ADD COLUMN rate_limit_per_minute integer CHECK (rate_limit_per_minute > 0),
  ADD COLUMN max_concurrent_jobs integer CHECK (max_concurrent_jobs > 0),
  ADD COLUMN is_service boolean NOT NULL DEFAULT false,
  ADD COLUMN created_by_person_id uuid REFERENCES persons(id) ON DELETE SET NULL,
  ADD COLUMN previous_secret_hash bytea UNIQUE,
  ADD COLUMN previous_secret_expires_at timestamptz,
  ADD COLUMN rotated_at timestamptz,
  ADD CONSTRAINT api_keys_service_has_no_owner CHECK (NOT is_service OR owner_person_id IS NULL);
CREATE INDEX jobs_api_key_active_idx ON jobs (api_key_id)
  WHERE status IN ('queued', 'submitting', 'running');
`,
};
