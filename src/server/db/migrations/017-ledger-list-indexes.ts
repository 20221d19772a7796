import type { Migration } from '../migrate.ts';

/**
 * The ledger's two lookups that are not a range of dates: one job's entries (its refunds on the job's
 * page, the refund command's charge) and one kind of entry (the Billing page's filter). Without them both
 * walked the team's whole ledger, newest first, looking for rows that are rare: three per job, and a few
 * refunds, grants or adjustments among millions of holds and settles. Measured in bench/ledger.ts.
 */
export const ledgerListIndexes: Migration = {
  id: '017-ledger-list-indexes',
  sql: `
CREATE INDEX credit_ledger_job_idx ON credit_ledger (job_id) WHERE job_id IS NOT NULL;
CREATE INDEX credit_ledger_team_kind_idx ON credit_ledger (team_id, kind, created_at DESC, id DESC);
`,
};
