import type { Migration } from '../migrate.ts';

/** The result cache is per team; uploads keep the media type read from their bytes. */
export const exposure: Migration = {
  id: '010-exposure',
  sql: `SELECT 1;`,
};
