import type { Migration } from '../migrate.ts';

/**
 * The whole expected run a job was given when created (domain/jobs/run-estimate.ts): measured p50–p90 or the
 * catalog's typical time, so the console can say which it is and how long the run may take, not only
 * `estimated_duration_ms`. Null on jobs made before.
 */
export const estimatedRun: Migration = {
  id: '031-estimated-run',
  sql: 'ALTER TABLE jobs ADD COLUMN estimated_run jsonb;',
};
