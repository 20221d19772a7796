import type { TeamMember } from '../../../../contract/team.ts';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { useRemoveMember } from '../../../queries/team.ts';
import { personName } from '../keys/person-name.ts';

/** Removing someone (or leaving) ends their access: their keys of this team are revoked, their shares end. */
export function RemoveMemberDialog({
  member,
  teamName,
  leaving,
  onClose,
  onRemoved,
}: {
  member: TeamMember;
  teamName: string;
  /** The caller is removing themselves. */
  leaving: boolean;
  onClose: () => void;
  onRemoved: () => void;
}) {
  const remove = useRemoveMember();
  const name = personName(member);
  return (
    <ConfirmDialog
      title={leaving ? `Leave ${teamName}?` : `Remove ${name} from ${teamName}?`}
      confirmLabel={leaving ? 'Leave team' : 'Remove member'}
      danger
      pending={remove.isPending}
      error={remove.error}
      onClose={onClose}
      onConfirm={() => remove.mutate(member.user_id, { onSuccess: onRemoved })}
    >
      <p>
        {leaving ? 'You lose' : `${name} loses`} access to the team's jobs, files and credits. API keys{' '}
        {leaving ? 'you own' : 'they own'} in this team are revoked at once, and keys of the team shared with{' '}
        {leaving ? 'you' : 'them'} are no longer shared.
      </p>
      {leaving && <p>To come back, a manager has to invite you again.</p>}
    </ConfirmDialog>
  );
}
