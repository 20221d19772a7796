import type { Migration } from '../migrate.ts';

/**
 * Who runs a job and until when. A run claims its job with a fresh `run_token` (the fence: progress,
 * outputs and the terminal move are written only while the token is still the job's), names its server
 * instance (`run_instance`, an advisory lock that instance holds while it lives, so a crashed process's
 * jobs are resumed at once) and renews `lease_expires_at` while it runs.
 * Jobs running when this applies belonged to a server of the old code: their lease is over now.
 */
export const jobLeases: Migration = {
  id: '009-job-leases',
  sql: `
ALTER TABLE jobs
  ADD COLUMN run_token uuid,
  ADD COLUMN run_instance integer,
  ADD COLUMN lease_expires_at timestamptz;
UPDATE jobs SET lease_expires_at = now() WHERE status IN ('submitting', 'running');
CREATE INDEX jobs_leased_idx ON jobs (lease_expires_at) WHERE status IN ('submitting', 'running');
`,
};
