import type { Migration } from '../migrate.ts';

/**
 * A new job's expected run is measured from the recent completed runs of its model at its provider
 * (domain/jobs/run-estimate.ts), on every creation until there are a few: this keeps that read to the
 * newest rows of one offer, however many jobs the server holds.
 */
export const measuredRuns: Migration = {
  id: '021-measured-runs',
  sql: `CREATE INDEX jobs_model_runs_idx ON jobs (model, provider, completed_at DESC) WHERE status = 'completed';`,
};
