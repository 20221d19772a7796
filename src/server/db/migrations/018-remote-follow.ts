import type { Migration } from '../migrate.ts';

/**
 * Jobs at external providers are followed without a worker (remote-follower.ts). The row records when the
 * creating request was sent (so a resumed run looks the job up instead of sending it twice), when the
 * provider took it, started and finished it (where a job's time went), and the tail of its log.
 */
export const remoteFollow: Migration = {
  id: '018-remote-follow',
  sql: `ALTER TABLE jobs
          ADD COLUMN provider_sent_at timestamptz,
          ADD COLUMN submitted_at timestamptz,
          ADD COLUMN provider_started_at timestamptz,
          ADD COLUMN provider_finished_at timestamptz,
          ADD COLUMN provider_logs text;`,
};
