import { useQueryClient } from '@tanstack/react-query';
import { useRouter } from '@tanstack/react-router';
import { useCallback } from 'react';

/**
 * Switches the team the console works in and stays on the same page, with its filters: the same section
 * and the same search, less what belongs to the team being left (a job or file open by id, a folder, a
 * key, a member, a file's address), which the new team has not got. The navigation names the team, the
 * person's own included, and the console's layout settles it before the page loads (routes/_app.tsx),
 * so nothing on screen asks for the new team's data before it is the current one.
 */
export function useSwitchTeam(): (teamId: string) => void {
  const router = useRouter();
  const queryClient = useQueryClient();
  return useCallback(
    (teamId: string) => {
      // Answers still on their way are for the team being left: none may land after the switch.
      void queryClient.cancelQueries();
      const { pathname, search } = router.state.location;
      void router.navigate({
        to: sectionOf(pathname) as '/',
        search: { ...searchForAnotherTeam(search as Record<string, unknown>), team: teamId },
      });
    },
    [router, queryClient],
  );
}

/** `/jobs/job_1` -> `/jobs`: the page's section, without an id of the team being left. */
export function sectionOf(pathname: string): string {
  return `/${pathname.split('/')[1] ?? ''}`;
}

// What names one team's own things, whatever the parameter is called: job, file, key and template ids,
// UUIDs (folders, members, teams), a creator (`api_key:key_…`, `member:<uuid>`) and addresses (a file's URL).
const TEAM_BOUND = [
  /\b(job|file|key|tpl)_[A-Za-z0-9_-]+/,
  /[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}/,
  /^[a-z][a-z0-9+.-]*:\/\//i,
];

/**
 * The page's search as it still makes sense in another team: filters by status, tool, model, dates,
 * text or view stay; a value naming something of the team being left goes (a list of such ids with it).
 */
export function searchForAnotherTeam(search: Record<string, unknown>): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(search)) {
    if (name === 'team') continue;
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    if (!TEAM_BOUND.some((pattern) => pattern.test(text))) kept[name] = value;
  }
  return kept;
}
