import type { Migration } from '../migrate.ts';

/**
 * Private presets a team saves (for example from a finished job's input), renames and deletes. Seen only
 * by the team; built-in presets stay code, not rows.
 */
export const teamPresets: Migration = {
  id: '011-team-presets',
  sql: `
CREATE TABLE team_presets (
  id text PRIMARY KEY CHECK (id ~ '^preset_[0-9a-f]{12}$'),
  team_id uuid NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  created_by uuid,
  type text NOT NULL,
  name text NOT NULL,
  description text NOT NULL,
  metadata jsonb NOT NULL,
  tools jsonb NOT NULL,
  preview_url text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX team_presets_team ON team_presets (team_id);
`,
};
