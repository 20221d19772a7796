import type { Migration } from '../migrate.ts';

/** API key shares, the reveal log, team invitations. */
export const keysTeam: Migration = {
  id: '006-keys-team',
  sql: `
`,
};
