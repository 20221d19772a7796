import { useQueryClient } from '@tanstack/react-query';
import { useRouter } from '@tanstack/react-router';
import { useCallback } from 'react';
import { setCurrentTeam } from './current-team.ts';

/**
 * Switches the team the console works in (null: the person's own) and stays on the same page: the same
 * section, without what belongs to the team left behind (a job or file open by id, a folder, a key or
 * a job in the search), which the new team has not got.
 */
export function useSwitchTeam(): (teamId: string | null) => void {
  const router = useRouter();
  const queryClient = useQueryClient();
  return useCallback(
    (teamId: string | null) => {
      // Answers still on their way are for the team being left: none may land after the switch.
      void queryClient.cancelQueries();
      setCurrentTeam(teamId);
      // `team: undefined` said outright: the console's links keep `?team=` unless a navigation names it.
      void router.navigate({
        to: sectionOf(router.state.location.pathname) as '/',
        search: { team: teamId ?? undefined },
      });
    },
    [router, queryClient],
  );
}

/** `/jobs/job_1` -> `/jobs`: the page's section, without an id of the team being left. */
export function sectionOf(pathname: string): string {
  return `/${pathname.split('/')[1] ?? ''}`;
}
