import type { QueryClient } from '@tanstack/react-query';
import { ApiError } from '../../client/api-error.ts';
import type { Me } from '../../contract/account.ts';
import { meQueryOptions } from '../queries/me.ts';
import { knowOwnTeam, ownTeamId, setCurrentTeam, teamToOpen } from './current-team.ts';

/**
 * Settles the team a page opens in, before any of its data loads (routes/_app.tsx): the link's `?team=`,
 * else this tab's team, else the team chosen last in this browser, else the person's own. A team they are not (or no longer)
 * in, which the server answers as unknown (404), gives way to their own. An API key from Settings acts
 * for its own team whatever the console sends, so then the console claims no other.
 *
 * Answers the caller (`/me` for that team) and the `?team=` the address should carry: the team's id,
 * the person's own too (a link shared with a colleague in that team opens in it, not in theirs), or
 * undefined for an API key, whose team no address can change.
 */
export async function enterTeam(
  queryClient: QueryClient,
  linked: string | undefined,
): Promise<{ me: Me; team: string | undefined }> {
  const wanted = linked ?? teamToOpen();
  setCurrentTeam(wanted);
  let me: Me;
  try {
    me = await queryClient.ensureQueryData(meQueryOptions());
  } catch (error) {
    if (!(wanted && error instanceof ApiError && error.status === 404)) throw error;
    setCurrentTeam(null);
    me = await queryClient.ensureQueryData(meQueryOptions());
  }
  knowOwnTeam(ownTeamId(me));
  const team = me.auth.kind === 'session' && me.team.id !== ownTeamId(me) ? me.team.id : null;
  if (team !== wanted) {
    // The own team asked for by its id (or a key's team): the own team is acted for without a header.
    setCurrentTeam(team);
    me = await queryClient.ensureQueryData(meQueryOptions());
  }
  return { me, team: me.auth.kind === 'session' ? me.team.id : undefined };
}
