import type { Migration } from '../migrate.ts';

/** API key shares, the reveal log, team invitations; whose personal team a team is; key change marks. */
export const keysTeam: Migration = {
  id: '006-keys-team',
  sql: `
-- The person a personal team belongs to: it stays their default team when they join others (which may be
-- personal teams too), and it can never lose them.
ALTER TABLE teams ADD COLUMN personal_person_id uuid REFERENCES persons(id) ON DELETE SET NULL;
UPDATE teams t SET personal_person_id = (
  SELECT m.person_id FROM memberships m
   WHERE m.team_id = t.id AND m.role = 'owner' ORDER BY m.created_at LIMIT 1)
 WHERE t.personal;
CREATE UNIQUE INDEX teams_personal_person_idx ON teams (personal_person_id);

-- Set when a key is revoked or its owner's role changes, so every process can evict its cached lookups
-- of that key within a second (see ApiKeyResolver).
ALTER TABLE api_keys ADD COLUMN changed_at timestamptz;
CREATE INDEX api_keys_changed_idx ON api_keys (changed_at) WHERE changed_at IS NOT NULL;
CREATE INDEX api_keys_owner_idx ON api_keys (owner_person_id, team_id);

CREATE TABLE api_key_shares (
  api_key_id text NOT NULL REFERENCES api_keys(id) ON DELETE CASCADE,
  person_id uuid NOT NULL REFERENCES persons(id) ON DELETE CASCADE,
  shared_by uuid REFERENCES persons(id) ON DELETE SET NULL,
  shared_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (api_key_id, person_id)
);
CREATE INDEX api_key_shares_person_idx ON api_key_shares (person_id);

-- The reveal log is kept as long as the key (an audit trail: never rewritten).
CREATE TABLE api_key_reveals (
  id text PRIMARY KEY,
  api_key_id text NOT NULL REFERENCES api_keys(id) ON DELETE CASCADE,
  person_id uuid NOT NULL REFERENCES persons(id),
  revealed_at timestamptz NOT NULL DEFAULT now(),
  ip_address text,
  user_agent text
);
CREATE INDEX api_key_reveals_key_idx ON api_key_reveals (api_key_id, revealed_at DESC, id DESC);

CREATE TABLE team_invitations (
  id text PRIMARY KEY,
  team_id uuid NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  email text NOT NULL CHECK (email = lower(email)),
  role text NOT NULL CHECK (role IN ('manager', 'member')),
  invited_by uuid REFERENCES persons(id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  accepted_at timestamptz
);
-- One pending invitation per address and team: inviting again renews it.
CREATE UNIQUE INDEX team_invitations_pending_idx ON team_invitations (team_id, email) WHERE accepted_at IS NULL;
CREATE INDEX team_invitations_email_idx ON team_invitations (email) WHERE accepted_at IS NULL;
`,
};
