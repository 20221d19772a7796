import type { Migration } from '../migrate.ts';

/**
 * Templates: declared variables, tags, approval state and the use counter (spec 4.8). Shipped starters have
 * no team and no author; the server writes them at start (their ids start with `tpl_starter_`).
 */
export const templates: Migration = {
  id: '012-templates',
  sql: `
CREATE TABLE templates (
  id text PRIMARY KEY,
  team_id uuid REFERENCES teams(id) ON DELETE CASCADE,
  author_id uuid REFERENCES persons(id) ON DELETE SET NULL,
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  tags text[] NOT NULL DEFAULT '{}',
  tool text NOT NULL,
  request jsonb NOT NULL,
  variables jsonb NOT NULL DEFAULT '[]',
  preview_url text,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected')),
  use_count integer NOT NULL DEFAULT 0 CHECK (use_count >= 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  approved_at timestamptz
);
CREATE INDEX templates_approved ON templates (created_at DESC, id DESC) WHERE status = 'approved';
CREATE INDEX templates_team ON templates (team_id, created_at DESC);
CREATE INDEX templates_tags ON templates USING gin (tags);
`,
};
