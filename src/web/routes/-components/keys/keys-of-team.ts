import type { Me } from '../../../../contract/account.ts';
import type { ApiKey } from '../../../../contract/api-keys.ts';
import { ownTeamId } from '../../../team/current-team.ts';

/**
 * The keys the Keys page shows in the team the console works in. The server lists every key the person
 * sees across all their teams; keys never mix on screen, so each team shows its own. Keys shared from a
 * team the person is not in (they cannot switch to it) show in their own team, so they stay reachable.
 */
export function keysOfTeam(keys: readonly ApiKey[], me: Pick<Me, 'team' | 'teams'>): ApiKey[] {
  const inOwnTeam = me.team.id === ownTeamId(me);
  const theirTeams = new Set(me.teams.map((team) => team.id));
  return keys.filter(
    (key) =>
      key.team_id === me.team.id || (inOwnTeam && key.relation === 'shared' && !theirTeams.has(key.team_id)),
  );
}
