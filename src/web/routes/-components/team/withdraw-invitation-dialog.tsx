import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { useWithdrawInvitation } from '../../../queries/team.ts';
import type { Invitation } from './invitations-list.tsx';

/** Withdraws a pending invitation after a confirmation; the mail they got no longer lets them in. */
export function WithdrawInvitationDialog({
  invitation,
  onClose,
}: {
  invitation: Invitation;
  onClose: () => void;
}) {
  const withdraw = useWithdrawInvitation();
  return (
    <ConfirmDialog
      title={`Withdraw the invitation of ${invitation.email}?`}
      confirmLabel="Withdraw invitation"
      danger
      pending={withdraw.isPending}
      error={withdraw.error}
      onClose={onClose}
      onConfirm={() => withdraw.mutate(invitation.id, { onSuccess: onClose })}
    >
      <p>They will not join the team at their next sign-in. You can invite them again later.</p>
    </ConfirmDialog>
  );
}
