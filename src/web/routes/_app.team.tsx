import { createFileRoute } from '@tanstack/react-router';
import { isUuid } from '../../contract/values.ts';
import { meQueryOptions } from '../queries/me.ts';
import { teamMembersQueryOptions } from '../queries/team.ts';
import { matching, searchParams } from '../search-params/fields.ts';
import { TeamPage } from './-components/team/team-page.tsx';

/** `?team=<id>` shows another of the person's teams; a malformed id is dropped, not an error page. */
const TeamSearch = searchParams({ team: matching(isUuid) });

/** The team: members and roles, invitations; what the caller may change follows their role. */
export const Route = createFileRoute('/_app/team')({
  validateSearch: TeamSearch,
  loaderDeps: ({ search }) => ({ team: search.team }),
  loader: ({ context: { queryClient }, deps }) =>
    Promise.all([
      queryClient.ensureQueryData(teamMembersQueryOptions(deps.team)),
      queryClient.ensureQueryData(meQueryOptions()),
    ]),
  component: TeamRoute,
});

function TeamRoute() {
  const { team } = Route.useSearch();
  return <TeamPage key={team ?? 'own'} teamId={team} />;
}
