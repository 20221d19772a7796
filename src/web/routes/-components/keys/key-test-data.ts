import type { ApiKey, PersonEntry } from '../../../../contract/api-keys.ts';
import { freshApiKey } from '../../../../contract/test-fixtures.ts';

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
  return freshApiKey(ana, overrides);
}
