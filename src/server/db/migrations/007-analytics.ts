import type { Migration } from '../migrate.ts';

/** Indexes that serve the analytics queries over the ledger. */
export const analyticsIndexes: Migration = {
  id: '007-analytics',
  sql: `
-- The entries analytics counts (final charges, refunds, adjustments) of a team by posting time, with
-- every column a filter, a dimension or a figure reads, so summaries, series, breakdowns and activity
-- pages are index-only scans of one range.
CREATE INDEX credit_ledger_analytics_idx ON credit_ledger (team_id, created_at, id)
  INCLUDE (delta_cents, kind, job_id, job_status, tool, model, folder_id, api_key_id, person_id, source)
  WHERE kind IN ('settle', 'refund', 'adjustment');

-- Runs are counted on jobs by creation time with the same filters: an index-only scan, not the wide rows.
CREATE INDEX jobs_analytics_idx ON jobs (team_id, created_at)
  INCLUDE (id, tool, model, folder_id, api_key_id, person_id, source, status);

-- Steps of a pipeline (idempotency key pipeline:<pipeline job id>:<step>): runs count the pipeline once.
-- Also the foreign-key actions of deleting jobs (the demo seed replaces a team's whole history) look
-- up these columns once per deleted job: without an index, each lookup scanned its table.
CREATE INDEX idempotency_keys_job_idx ON idempotency_keys (job_id) WHERE job_id IS NOT NULL;
CREATE INDEX jobs_retry_of_idx ON jobs (retry_of) WHERE retry_of IS NOT NULL;
CREATE INDEX webhook_deliveries_job_idx ON webhook_deliveries (job_id);
`,
};
