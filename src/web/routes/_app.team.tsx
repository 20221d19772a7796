import { createFileRoute } from '@tanstack/react-router';
import { meQueryOptions } from '../queries/me.ts';
import { teamMembersQueryOptions } from '../queries/team.ts';
import { TeamPage } from './-components/team/team-page.tsx';

/** The team the console works in: members and roles, invitations; what the caller may change follows their role. */
export const Route = createFileRoute('/_app/team')({
  loader: ({ context: { queryClient } }) =>
    Promise.all([
      queryClient.ensureQueryData(teamMembersQueryOptions()),
      queryClient.ensureQueryData(meQueryOptions()),
    ]),
  component: TeamPage,
});
