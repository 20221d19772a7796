import type { Migration } from '../migrate.ts';

/**
 * The result cache is per team (and folder): its keys now hash the team and folder in. Entries made under
 * the old keys can never be hit again, and each holds one team's output that another team's identical
 * request could still be answered with while a job keyed the old way waits in the queue: drop them.
 */
export const exposure: Migration = {
  id: '010-exposure',
  sql: `DELETE FROM result_cache;`,
};
