import type { Migration } from '../migrate.ts';

/**
 * The job feed's filters, each served in the list's own order: with one value of status, tool, model,
 * folder or key, the page is the first rows of one of these indexes, so a filter that matches nothing
 * (or a few old jobs) no longer walks every job of the team. NULL folder_id / api_key_id are the
 * `none` filters. A list of values is one index scan per value (routes/jobs-list.ts).
 * Write cost: jobs are not updated in place (HOT) even before these (updated_at is indexed), so each
 * write of a job also writes these five entries; measured in bench/job-list.ts.
 */
export const jobListIndexes: Migration = {
  id: '013-job-list-indexes',
  sql: `
CREATE INDEX jobs_team_status_created_idx ON jobs (team_id, status, created_at DESC, id DESC);
CREATE INDEX jobs_team_tool_created_idx ON jobs (team_id, tool, created_at DESC, id DESC);
CREATE INDEX jobs_team_model_created_idx ON jobs (team_id, model, created_at DESC, id DESC);
CREATE INDEX jobs_team_folder_created_idx ON jobs (team_id, folder_id, created_at DESC, id DESC);
CREATE INDEX jobs_team_key_created_idx ON jobs (team_id, api_key_id, created_at DESC, id DESC);
`,
};
