import { useNavigate } from '@tanstack/react-router';
import { useId } from 'react';
import type { Me } from '../../../../contract/account.ts';
import { useNavigatingSearch } from '../../../components/use-navigating-search.ts';
import { searchParams, text } from '../../../search-params/fields.ts';
import { ROLE_LABELS } from './team-permissions.ts';

const TeamChoice = searchParams({ team: text() });

/**
 * Picks which of the person's teams the page shows; the choice lives in the URL (`?team=`). The select
 * follows the URL being navigated to, so it shows the new team at once while its members load.
 */
export function TeamPicker({ teams, own }: { teams: Me['teams']; own: string }) {
  const id = useId();
  const navigate = useNavigate();
  const current = useNavigatingSearch(TeamChoice).team ?? own;
  return (
    <div className="flex items-center gap-2">
      <label htmlFor={id} className="text-sm font-medium text-zinc-800 dark:text-zinc-200">
        Team
      </label>
      <select
        id={id}
        value={current}
        onChange={(event) => {
          const team = event.target.value === own ? undefined : event.target.value;
          void navigate({ to: '/team', search: { team } });
        }}
        className="h-10 rounded-lg border border-zinc-300 bg-white px-3 text-sm text-zinc-900 shadow-sm dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
      >
        {teams.map((team) => (
          <option key={team.id} value={team.id}>
            {team.name} ({ROLE_LABELS[team.role].toLowerCase()})
          </option>
        ))}
      </select>
    </div>
  );
}
