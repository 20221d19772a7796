import type { Migration } from '../migrate.ts';

/**
 * Restricted keys, first part (issue #31): a key may carry an expiry. Null means it never expires; past
 * it the key answers 401 `api_key_expired` (checked when the key is used, so a cached lookup cannot
 * outlive it).
 */
export const keyExpiry: Migration = {
  id: '023-key-expiry',
  sql: `ALTER TABLE api_keys ADD COLUMN expires_at timestamptz;`,
};
