import type { Migration } from '../migrate.ts';

/** Files (bytes in the blob store, described here) and their lineage: which job made or used which file. */
export const files: Migration = {
  id: '004-files',
  sql: `
CREATE TABLE files (
  -- file_ + random characters: the public media URL carries the id, so it must not be guessable.
  id text PRIMARY KEY CHECK (id ~ '^file_[A-Za-z0-9_-]{16,123}$'),
  team_id uuid NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  folder_id uuid REFERENCES workspaces(id) ON DELETE SET NULL,
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 255),
  media_type text NOT NULL,
  size_bytes bigint NOT NULL CHECK (size_bytes >= 0),
  sha256 text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
  storage_key text NOT NULL,
  origin text NOT NULL CHECK (origin IN ('upload', 'import', 'job')),
  -- The job that produced the file (origin job); its file_lineage 'output' row says the same.
  job_id text REFERENCES jobs(id) ON DELETE SET NULL CHECK (job_id IS NULL OR origin = 'job'),
  width integer CHECK (width > 0),
  height integer CHECK (height > 0),
  duration_seconds double precision CHECK (duration_seconds >= 0),
  thumbnail_key text,
  metadata jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX files_team_created_idx ON files (team_id, created_at DESC, id DESC);
CREATE INDEX files_team_sha256_idx ON files (team_id, sha256);
CREATE INDEX files_folder_idx ON files (folder_id) WHERE folder_id IS NOT NULL;
CREATE INDEX files_job_idx ON files (job_id) WHERE job_id IS NOT NULL;

-- 'output': the job produced the file. 'input': the job used the file.
CREATE TABLE file_lineage (
  file_id text NOT NULL REFERENCES files(id) ON DELETE CASCADE,
  job_id text NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
  role text NOT NULL CHECK (role IN ('input', 'output')),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (file_id, job_id, role)
);
CREATE INDEX file_lineage_job_idx ON file_lineage (job_id, role);
`,
};
