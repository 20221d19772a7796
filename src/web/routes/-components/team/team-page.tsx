import { useSuspenseQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import type { TeamMember } from '../../../../contract/team.ts';
import { Button } from '../../../components/button.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { showToast } from '../../../components/toast-store.ts';
import { meQueryOptions } from '../../../queries/me.ts';
import { teamMembersQueryOptions } from '../../../queries/team.ts';
import { personName } from '../keys/person-name.ts';
import { ChangeRoleDialog } from './change-role-dialog.tsx';
import { type Invitation, InvitationsList } from './invitations-list.tsx';
import { InviteDialog } from './invite-dialog.tsx';
import { type MemberAction, MembersTable } from './members-table.tsx';
import { RemoveMemberDialog } from './remove-member-dialog.tsx';
import { type Actor, assignableRoles, canInvite, ROLE_LABELS } from './team-permissions.ts';
import { TeamPicker } from './team-picker.tsx';
import { WithdrawInvitationDialog } from './withdraw-invitation-dialog.tsx';

type OpenDialog =
  | { kind: 'invite' }
  | { kind: MemberAction; member: TeamMember }
  | { kind: 'withdraw'; invitation: Invitation }
  | null;

/**
 * One of the person's teams (their own unless `teamId` names another): members and roles, invitations,
 * and only the buttons the caller's role in that team allows.
 */
export function TeamPage({ teamId }: { teamId: string | undefined }) {
  const { data: me } = useSuspenseQuery(meQueryOptions());
  const { data: members } = useSuspenseQuery(teamMembersQueryOptions(teamId));
  const navigate = useNavigate();
  const [open, setOpen] = useState<OpenDialog>(null);
  const close = () => setOpen(null);
  const team = me.teams.find((entry) => entry.id === teamId) ?? me.team;
  const actor: Actor = { role: team.role, userId: me.person?.id ?? null, personalTeam: team.personal };
  const inviter = canInvite(actor);

  return (
    <>
      <PageHeader
        title="Team"
        description={
          <>
            {team.name}
            {team.personal ? ' (your personal team)' : ''}. You are {ROLE_LABELS[team.role].toLowerCase()}.
          </>
        }
        actions={
          <>
            {me.teams.length > 1 && <TeamPicker teams={me.teams} own={me.team.id} />}
            {inviter && <Button onClick={() => setOpen({ kind: 'invite' })}>Invite</Button>}
          </>
        }
      />
      <MembersTable
        members={members.data}
        actor={actor}
        onAction={(kind, member) => setOpen({ kind, member })}
      />
      {inviter && (
        <InvitationsList
          invitations={members.invitations}
          onWithdraw={(invitation) => setOpen({ kind: 'withdraw', invitation })}
        />
      )}

      {open?.kind === 'withdraw' && (
        <WithdrawInvitationDialog teamId={teamId} invitation={open.invitation} onClose={close} />
      )}
      {open?.kind === 'invite' && <InviteDialog teamId={teamId} teamName={team.name} onClose={close} />}
      {open?.kind === 'role' && (
        <ChangeRoleDialog
          teamId={teamId}
          member={open.member}
          roles={assignableRoles(actor, open.member)}
          onClose={close}
        />
      )}
      {open?.kind === 'remove' && (
        <RemoveMemberDialog
          teamId={teamId}
          member={open.member}
          teamName={team.name}
          leaving={open.member.user_id === actor.userId}
          onClose={close}
          onRemoved={() => {
            const leaving = open.member.user_id === actor.userId;
            showToast({
              title: leaving ? `You left ${team.name}` : `${personName(open.member)} was removed`,
              tone: 'success',
            });
            close();
            // Gone from that team: back to their own.
            if (leaving) void navigate({ to: '/team', search: {} });
          }}
        />
      )}
    </>
  );
}
