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
import { WithdrawInvitationDialog } from './withdraw-invitation-dialog.tsx';

type OpenDialog =
  | { kind: 'invite' }
  | { kind: MemberAction; member: TeamMember }
  | { kind: 'withdraw'; invitation: Invitation }
  | null;

/** The team the console acts for: members and roles, invitations, and what the caller's role allows. */
export function TeamPage() {
  const { data: me } = useSuspenseQuery(meQueryOptions());
  const { data: team } = useSuspenseQuery(teamMembersQueryOptions());
  const navigate = useNavigate();
  const [open, setOpen] = useState<OpenDialog>(null);
  const close = () => setOpen(null);
  const actor: Actor = { role: me.role, userId: me.person?.id ?? null, personalTeam: me.team.personal };
  const inviter = canInvite(actor);

  return (
    <>
      <PageHeader
        title="Team"
        description={
          <>
            {me.team.name}
            {me.team.personal ? ' (your personal team)' : ''}. You are {ROLE_LABELS[me.role].toLowerCase()}.
          </>
        }
        actions={inviter && <Button onClick={() => setOpen({ kind: 'invite' })}>Invite</Button>}
      />
      <MembersTable
        members={team.data}
        actor={actor}
        onAction={(kind, member) => setOpen({ kind, member })}
      />
      {inviter && (
        <InvitationsList
          invitations={team.invitations}
          onWithdraw={(invitation) => setOpen({ kind: 'withdraw', invitation })}
        />
      )}

      {open?.kind === 'withdraw' && <WithdrawInvitationDialog invitation={open.invitation} onClose={close} />}
      {open?.kind === 'invite' && <InviteDialog teamName={me.team.name} onClose={close} />}
      {open?.kind === 'role' && (
        <ChangeRoleDialog member={open.member} roles={assignableRoles(actor, open.member)} onClose={close} />
      )}
      {open?.kind === 'remove' && (
        <RemoveMemberDialog
          member={open.member}
          teamName={me.team.name}
          leaving={open.member.user_id === actor.userId}
          onClose={close}
          onRemoved={() => {
            const leaving = open.member.user_id === actor.userId;
            showToast({
              title: leaving ? `You left ${me.team.name}` : `${personName(open.member)} was removed`,
              tone: 'success',
            });
            close();
            if (leaving) void navigate({ to: '/' });
          }}
        />
      )}
    </>
  );
}
