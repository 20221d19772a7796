import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { TeamRole } from '../../contract/account.ts';
import { sessionApi } from '../api/client.ts';
import { teamScoped } from '../team/current-team.ts';
import { apiKeyKeys } from './api-keys.ts';
import { meKeys } from './me.ts';

/*
 * The current team's members, roles and pending invitations (the team the console works in: every call
 * carries it, team/current-team.ts).
 */

export const teamKeys = {
  get all() {
    return teamScoped(['team'] as const);
  },
  members: () => teamScoped(['team', 'members'] as const),
};

export function teamMembersQueryOptions() {
  return queryOptions({
    queryKey: teamKeys.members(),
    queryFn: () => sessionApi().listTeamMembers(),
  });
}

export function useInviteTeamMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { email: string; role: 'manager' | 'member' }) =>
      sessionApi().inviteTeamMember({ body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: teamKeys.members() }),
  });
}

/** Withdraws a pending invitation: the address no longer joins at its next sign-in. */
export function useWithdrawInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => sessionApi().revokeTeamInvitation({ params: { id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: teamKeys.members() }),
  });
}

export function useChangeMemberRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, role }: { userId: string; role: TeamRole }) =>
      sessionApi().updateTeamMember({ params: { user_id: userId }, body: { role } }),
    // A change of one's own role changes what the console may offer.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: teamKeys.members() }),
        queryClient.invalidateQueries({ queryKey: meKeys.all }),
      ]),
  });
}

/** Removing a member revokes their keys of the team and ends their shares: the key list changes too. */
export function useRemoveMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => sessionApi().removeTeamMember({ params: { user_id: userId } }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: teamKeys.all }),
        queryClient.invalidateQueries({ queryKey: apiKeyKeys.all }),
        queryClient.invalidateQueries({ queryKey: meKeys.all }),
      ]),
  });
}
