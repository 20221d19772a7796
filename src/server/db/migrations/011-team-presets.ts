import type { Migration } from '../migrate.ts';

/** Private presets a team saves, renames and deletes (spec 2.7 kinds beyond provider voices). */
export const teamPresets: Migration = {
  id: '011-team-presets',
  sql: `SELECT 1;`,
};
