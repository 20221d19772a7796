import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { TeamRole } from '../../contract/account.ts';
import { sessionApi } from '../api/client.ts';
import { apiKeyKeys } from './api-keys.ts';
import { meKeys } from './me.ts';

/*
 * A team's members, roles and pending invitations. `teamId` picks one of the person's teams
 * (X-Team-Id); without it the server answers for their own team, as for every other page.
 */

export const teamKeys = {
  all: ['team'] as const,
  members: (teamId: string | undefined) => ['team', 'members', teamId ?? 'own'] as const,
};

function teamHeaders(teamId: string | undefined): Record<string, string> | undefined {
  return teamId ? { 'x-team-id': teamId } : undefined;
}

export function teamMembersQueryOptions(teamId?: string) {
  return queryOptions({
    queryKey: teamKeys.members(teamId),
    queryFn: () => sessionApi().listTeamMembers({ headers: teamHeaders(teamId) }),
  });
}

export function useInviteTeamMember(teamId?: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { email: string; role: 'manager' | 'member' }) =>
      sessionApi().inviteTeamMember({ body, headers: teamHeaders(teamId) }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: teamKeys.members(teamId) }),
  });
}

/** Withdraws a pending invitation: the address no longer joins at its next sign-in. */
export function useWithdrawInvitation(teamId?: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      sessionApi().revokeTeamInvitation({ params: { id }, headers: teamHeaders(teamId) }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: teamKeys.members(teamId) }),
  });
}

export function useChangeMemberRole(teamId?: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, role }: { userId: string; role: TeamRole }) =>
      sessionApi().updateTeamMember({
        params: { user_id: userId },
        body: { role },
        headers: teamHeaders(teamId),
      }),
    // A change of one's own role changes what the console may offer.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: teamKeys.members(teamId) }),
        queryClient.invalidateQueries({ queryKey: meKeys.all }),
      ]),
  });
}

/** Removing a member revokes their keys of the team and ends their shares: the key list changes too. */
export function useRemoveMember(teamId?: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) =>
      sessionApi().removeTeamMember({ params: { user_id: userId }, headers: teamHeaders(teamId) }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: teamKeys.all }),
        queryClient.invalidateQueries({ queryKey: apiKeyKeys.all }),
        queryClient.invalidateQueries({ queryKey: meKeys.all }),
      ]),
  });
}
