import type { Migration } from '../migrate.ts';

/** Upload sessions, deleted files kept for lineage, thumbnails. */
export const uploadsFolders: Migration = {
  id: '005-uploads-folders',
  sql: `
`,
};
