import type { Migration } from '../migrate.ts';

/** Upload sessions, deleted files kept for lineage, thumbnails made on first request, folder listing. */
export const uploadsFolders: Migration = {
  id: '005-uploads-folders',
  sql: `
-- A deleted file keeps its row (and its lineage) so graphs stay honest; its bytes are gone.
ALTER TABLE files ADD COLUMN deleted_at timestamptz;
-- Set when a thumbnail could not be made from the bytes, so it is not tried on every request.
ALTER TABLE files ADD COLUMN thumbnail_failed boolean NOT NULL DEFAULT false;
CREATE INDEX files_team_live_created_idx ON files (team_id, created_at DESC, id DESC) WHERE deleted_at IS NULL;
CREATE INDEX files_team_sha256_live_idx ON files (team_id, sha256) WHERE deleted_at IS NULL;

CREATE INDEX workspaces_team_created_idx ON workspaces (team_id, created_at DESC, id DESC);

-- One upload of up to 200 MB; the id becomes the file id (spec 2.5).
-- open -> uploading (bytes arriving) -> uploaded (direct PUT done, waiting for POST /files/import)
--   -> registered (the file row exists). A failed upload goes back to open: nothing was kept.
CREATE TABLE upload_sessions (
  id text PRIMARY KEY CHECK (id ~ '^file_[A-Za-z0-9_-]{16,123}$'),
  team_id uuid NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  folder_id uuid REFERENCES workspaces(id) ON DELETE SET NULL,
  person_id uuid,
  filename text CHECK (filename IS NULL OR length(filename) BETWEEN 1 AND 255),
  media_type text NOT NULL,
  declared_size bigint CHECK (declared_size BETWEEN 1 AND 209715200),
  declared_sha256 text CHECK (declared_sha256 ~ '^[0-9a-f]{64}$'),
  state text NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'uploading', 'uploaded', 'registered')),
  storage_key text,
  received_size bigint,
  received_sha256 text,
  detected_media_type text,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX upload_sessions_team_idx ON upload_sessions (team_id, created_at DESC);
CREATE INDEX upload_sessions_expiry_idx ON upload_sessions (expires_at) WHERE state <> 'registered';
`,
};
