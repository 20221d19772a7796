import { useSuspenseQuery } from '@tanstack/react-query';
import { useId } from 'react';
import type { Me } from '../../../../contract/account.ts';
import { meQueryOptions } from '../../../queries/me.ts';
import { ownTeamId } from '../../../team/current-team.ts';
import { useSwitchTeam } from '../../../team/use-switch-team.ts';
import { ROLE_LABELS } from '../team/team-permissions.ts';

/** "Acme (member)", "ann's team (owner, personal)": each team with the person's role in it. */
export function teamLabel(team: Me['teams'][number], own: boolean): string {
  const role = ROLE_LABELS[team.role].toLowerCase();
  return `${team.name} (${own ? `${role}, personal` : role})`;
}

/**
 * The team the console works in, in the header: a native select (keyboard and screen readers know it),
 * each team with the person's role. A person in one team, or using an API key from Settings (which acts
 * for its own team whatever the console sends), sees the team without a choice.
 */
export function TeamSwitcher() {
  const { data: me } = useSuspenseQuery(meQueryOptions());
  const switchTeam = useSwitchTeam();
  const id = useId();
  const own = ownTeamId(me);
  const current = me.team;

  if (me.teams.length < 2 || me.auth.kind !== 'session') {
    return (
      <p className="hidden max-w-56 truncate text-sm text-zinc-600 sm:block dark:text-zinc-400">
        <span className="sr-only">Team: </span>
        {current.name}
      </p>
    );
  }
  return (
    <div className="flex min-w-0 items-center gap-2">
      <label htmlFor={id} className="hidden text-sm font-medium text-zinc-700 sm:block dark:text-zinc-300">
        Team
      </label>
      <select
        id={id}
        // Named for screen readers also where the visible label is hidden (small screens).
        aria-label="Team"
        value={current.id}
        onChange={(event) => switchTeam(event.target.value)}
        className="h-9 max-w-44 min-w-0 truncate rounded-lg border border-zinc-300 bg-white px-2 text-sm text-zinc-900 shadow-sm sm:max-w-64 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
      >
        {me.teams.map((team) => (
          <option key={team.id} value={team.id}>
            {teamLabel(team, team.id === own)}
          </option>
        ))}
      </select>
    </div>
  );
}
