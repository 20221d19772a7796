import type { Migration } from '../migrate.ts';

/** People, teams, memberships, API keys, sessions, sign-in codes, rate-limit windows, dev mailbox, credit ledger. */
export const identity: Migration = {
  id: '001-identity',
  sql: `
CREATE TABLE persons (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  email text NOT NULL UNIQUE CHECK (email = lower(email)),
  display_name text NOT NULL,
  avatar_url text,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE teams (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL,
  slug text NOT NULL UNIQUE,
  personal boolean NOT NULL DEFAULT false,
  -- The running balance; every change is a credit_ledger row written in the same transaction.
  balance_cents bigint NOT NULL DEFAULT 0 CHECK (balance_cents >= 0),
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE memberships (
  team_id uuid NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  person_id uuid NOT NULL REFERENCES persons(id) ON DELETE CASCADE,
  role text NOT NULL CHECK (role IN ('owner', 'manager', 'member')),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (team_id, person_id)
);
CREATE INDEX memberships_person_idx ON memberships (person_id);

CREATE TABLE api_keys (
  id text PRIMARY KEY,
  team_id uuid NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  owner_person_id uuid REFERENCES persons(id) ON DELETE SET NULL,
  name text NOT NULL,
  secret_hash bytea NOT NULL UNIQUE,
  start text NOT NULL,
  last4 text NOT NULL,
  revealable boolean NOT NULL DEFAULT false,
  secret_encrypted bytea CHECK (revealable OR secret_encrypted IS NULL),
  is_default boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz,
  revoked_at timestamptz
);
CREATE INDEX api_keys_team_idx ON api_keys (team_id);
CREATE UNIQUE INDEX api_keys_one_default_idx ON api_keys (owner_person_id, team_id) WHERE is_default AND revoked_at IS NULL;

CREATE TABLE sessions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  person_id uuid NOT NULL REFERENCES persons(id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz,
  user_agent text,
  client_address text
);
CREATE INDEX sessions_person_idx ON sessions (person_id);

CREATE TABLE otp_codes (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  email text NOT NULL,
  code_hash bytea NOT NULL,
  attempts int NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  -- Set when the code was used, burned by wrong tries, or replaced by a newer code.
  closed_at timestamptz,
  closed_reason text CHECK (closed_reason IN ('used', 'too_many_attempts', 'superseded'))
);
CREATE INDEX otp_codes_email_idx ON otp_codes (email, created_at DESC);

CREATE TABLE rate_limit_windows (
  bucket text NOT NULL,
  window_start timestamptz NOT NULL,
  hits int NOT NULL,
  PRIMARY KEY (bucket, window_start)
);

CREATE TABLE dev_mailbox (
  id bigserial PRIMARY KEY,
  to_email text NOT NULL,
  subject text NOT NULL,
  body text NOT NULL,
  code text,
  sent_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX dev_mailbox_to_idx ON dev_mailbox (to_email, id DESC);

CREATE TABLE credit_ledger (
  id bigserial PRIMARY KEY,
  team_id uuid NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  delta_cents bigint NOT NULL,
  balance_after_cents bigint NOT NULL CHECK (balance_after_cents >= 0),
  kind text NOT NULL CHECK (kind IN ('grant', 'hold', 'settle', 'release', 'refund', 'adjustment')),
  reason text,
  person_id uuid,
  api_key_id text,
  source text CHECK (source IN ('app', 'api', 'mcp', 'internal')),
  tool text,
  model text,
  folder_id uuid,
  job_id text,
  job_status text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX credit_ledger_team_idx ON credit_ledger (team_id, created_at DESC);
`,
};
