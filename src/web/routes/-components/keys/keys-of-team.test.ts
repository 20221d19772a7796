import { describe, expect, it } from 'vitest';
import type { Me } from '../../../../contract/account.ts';
import type { ApiKey } from '../../../../contract/api-keys.ts';
import { keysOfTeam } from './keys-of-team.ts';

const OWN = 'a0000000-0000-4000-8000-00000000000a';
const OLGA = 'b0000000-0000-4000-8000-00000000000b';
const ELSEWHERE = 'c0000000-0000-4000-8000-00000000000c';

const teams: Me['teams'] = [
  { id: OWN, name: 'own', slug: 'own', personal: true, role: 'owner' },
  { id: OLGA, name: 'olga', slug: 'olga', personal: true, role: 'manager' },
];
const key = (id: string, team_id: string, relation: ApiKey['relation']) =>
  ({ id, team_id, relation }) as ApiKey;
const keys = [
  key('key_own', OWN, 'owned'),
  key('key_olga', OLGA, 'team'),
  key('key_shared_from_olga', OLGA, 'shared'),
  key('key_shared_from_elsewhere', ELSEWHERE, 'shared'),
];
const ids = (list: ApiKey[]) => list.map((k) => k.id);

describe('the keys of the team the console works in', () => {
  it('shows each team its own keys, never another of her teams', () => {
    expect(ids(keysOfTeam(keys, { team: teams[1]!, teams }))).toEqual(['key_olga', 'key_shared_from_olga']);
  });

  it('keeps keys shared from a team she is not in reachable, in her own team', () => {
    expect(ids(keysOfTeam(keys, { team: teams[0]!, teams }))).toEqual([
      'key_own',
      'key_shared_from_elsewhere',
    ]);
  });
});
