import type { Migration } from '../migrate.ts';

/**
 * How many runs of a job ended by throwing instead of ending the job (the database lost while the run
 * wrote its result, a fault in our code): such a run lets go of its job at once for another try, and the
 * job fails after a few (job-lease.ts `letGoAfterThrow`).
 */
export const runFailures: Migration = {
  id: '015-run-failures',
  sql: `ALTER TABLE jobs ADD COLUMN run_failures smallint NOT NULL DEFAULT 0;`,
};
