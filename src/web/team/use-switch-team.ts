import { useQueryClient } from '@tanstack/react-query';
import { useRouter } from '@tanstack/react-router';
import { useCallback } from 'react';

/**
 * Switches the team the console works in and stays on the same page: the same section, without what
 * belongs to the team left behind (a job or file open by id, a folder, a key or a job in the search),
 * which the new team has not got. The navigation names the team, the person's own included, and the
 * console's layout settles it before the page loads (routes/_app.tsx; the own team's id then leaves
 * the address), so nothing on screen asks for the new team's data before it is the current one.
 */
export function useSwitchTeam(): (teamId: string) => void {
  const router = useRouter();
  const queryClient = useQueryClient();
  return useCallback(
    (teamId: string) => {
      // Answers still on their way are for the team being left: none may land after the switch.
      void queryClient.cancelQueries();
      void router.navigate({
        to: sectionOf(router.state.location.pathname) as '/',
        search: { team: teamId },
      });
    },
    [router, queryClient],
  );
}

/** `/jobs/job_1` -> `/jobs`: the page's section, without an id of the team being left. */
export function sectionOf(pathname: string): string {
  return `/${pathname.split('/')[1] ?? ''}`;
}
