import type { Migration } from '../migrate.ts';

/**
 * The MCP authorization flow (OAuth 2.1, docs/mcp.md): clients that registered themselves (dynamic client
 * registration), and the one-time codes a person's consent issues. The tokens are API keys (api_keys),
 * so they are listed and revoked on the Keys page like any other key.
 */
export const mcpOauth: Migration = {
  id: '022-mcp-oauth',
  sql: `
CREATE TABLE oauth_clients (
  id text PRIMARY KEY,
  name text NOT NULL,
  redirect_uris text[] NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE oauth_codes (
  code_hash text PRIMARY KEY,
  client_id text NOT NULL REFERENCES oauth_clients(id) ON DELETE CASCADE,
  person_id uuid NOT NULL REFERENCES persons(id) ON DELETE CASCADE,
  team_id uuid NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  redirect_uri text NOT NULL,
  code_challenge text NOT NULL,
  resource text,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX oauth_codes_expiry ON oauth_codes (expires_at);
`,
};
