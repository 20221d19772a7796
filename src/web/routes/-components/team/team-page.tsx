import { useSuspenseQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { TeamMember } from '../../../../contract/team.ts';
import { Button } from '../../../components/button.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { showToast } from '../../../components/toast-store.ts';
import { meQueryOptions } from '../../../queries/me.ts';
import { teamMembersQueryOptions } from '../../../queries/team.ts';
import { ownTeamId } from '../../../team/current-team.ts';
import { useSwitchTeam } from '../../../team/use-switch-team.ts';
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

/**
 * The team the console works in (the header's switcher picks it): members and roles, invitations, and
 * only the buttons the caller's role in that team allows.
 */
export function TeamPage() {
  const { data: me } = useSuspenseQuery(meQueryOptions());
  const { data: members } = useSuspenseQuery(teamMembersQueryOptions());
  const switchTeam = useSwitchTeam();
  const [open, setOpen] = useState<OpenDialog>(null);
  const close = () => setOpen(null);
  const team = me.team;
  // Someone else's personal team is personal too, but it is not yours: only your own is named so.
  const yourPersonalTeam = team.personal && team.id === ownTeamId(me);
  const actor: Actor = { role: team.role, userId: me.person?.id ?? null, personalTeam: yourPersonalTeam };
  const inviter = canInvite(actor);

  return (
    <>
      <PageHeader
        title="Team"
        description={
          <>
            {team.name}
            {yourPersonalTeam ? ' (your personal team)' : ''}. You are {ROLE_LABELS[team.role].toLowerCase()}.
          </>
        }
        actions={inviter && <Button onClick={() => setOpen({ kind: 'invite' })}>Invite</Button>}
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

      {open?.kind === 'withdraw' && <WithdrawInvitationDialog invitation={open.invitation} onClose={close} />}
      {open?.kind === 'invite' && <InviteDialog teamName={team.name} onClose={close} />}
      {open?.kind === 'role' && (
        <ChangeRoleDialog member={open.member} roles={assignableRoles(actor, open.member)} onClose={close} />
      )}
      {open?.kind === 'remove' && (
        <RemoveMemberDialog
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
            if (leaving) switchTeam(ownTeamId(me));
          }}
        />
      )}
    </>
  );
}
