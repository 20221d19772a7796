import type { ApiKey, PersonEntry } from '../../../../contract/api-keys.ts';

/* Records as the server answers them, for the Keys components' tests. */

export const ana: PersonEntry = {
  user_id: '00000000-0000-4000-8000-00000000000a',
  email: 'ana@example.com',
  display_name: 'Ana Lima',
  avatar_url: null,
};

export const bo: PersonEntry = {
  user_id: '00000000-0000-4000-8000-00000000000b',
  email: 'bo@example.com',
  display_name: '',
  avatar_url: null,
};

export function testKey(overrides: Partial<ApiKey> = {}): ApiKey {
  return {
    id: 'key_ci',
    name: 'CI',
    start: 'mcsk_AbC',
    last4: 'wxyz',
    revealable: true,
    owner: ana,
    team_id: '00000000-0000-4000-8000-0000000000f0',
    relation: 'owned',
    shared: false,
    share_count: 0,
    created_at: '2026-11-20T10:00:00.000Z',
    last_used_at: null,
    revoked_at: null,
    expires_at: null,
    allowed_tools: null,
    allowed_models: null,
    allowed_ips: null,
    read_only: false,
    rate_limit_per_minute: null,
    max_concurrent_jobs: null,
    service: false,
    rotated_at: null,
    previous_secret_expires_at: null,
    spend_limit: null,
    ...overrides,
  };
}
