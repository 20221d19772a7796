import type { ApiKey } from '../../../../contract/api-keys.ts';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { useRemoveApiKeyShare } from '../../../queries/api-keys.ts';

/** Someone a key was shared with gives it back; only the owner or a manager can share it again. */
export function LeaveShareDialog({
  apiKey,
  userId,
  onClose,
}: {
  apiKey: ApiKey;
  userId: string;
  onClose: () => void;
}) {
  const leave = useRemoveApiKeyShare(apiKey.id);
  return (
    <ConfirmDialog
      title={`Give back “${apiKey.name}”?`}
      confirmLabel="Give back"
      danger
      pending={leave.isPending}
      error={leave.error}
      onClose={onClose}
      onConfirm={() => leave.mutate(userId, { onSuccess: onClose })}
    >
      <p>
        The key leaves your list and you can no longer reveal it. The key itself keeps working for its owner
        and anyone else it is shared with.
      </p>
    </ConfirmDialog>
  );
}
