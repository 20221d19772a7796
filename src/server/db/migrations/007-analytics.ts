import type { Migration } from '../migrate.ts';

/** Indexes that serve the analytics queries over the ledger. */
export const analyticsIndexes: Migration = {
  id: '007-analytics',
  sql: `
`,
};
