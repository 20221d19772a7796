import type { ApiKey } from '../../../../contract/api-keys.ts';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { showToast } from '../../../components/toast-store.ts';
import { useRevokeApiKey } from '../../../queries/api-keys.ts';
import { keyPreview } from './key-preview.ts';

/** Revoking is final: the key stops working at once, for everyone it was shared with. */
export function RevokeKeyDialog({ apiKey, onClose }: { apiKey: ApiKey; onClose: () => void }) {
  const revoke = useRevokeApiKey();
  return (
    <ConfirmDialog
      title={`Revoke “${apiKey.name}”?`}
      confirmLabel="Revoke key"
      danger
      pending={revoke.isPending}
      error={revoke.error}
      onClose={onClose}
      onConfirm={() =>
        revoke.mutate(apiKey.id, {
          onSuccess: () => {
            showToast({ title: `Key “${apiKey.name}” revoked`, tone: 'success' });
            onClose();
          },
        })
      }
    >
      <p>
        The key <span className="font-mono">{keyPreview(apiKey)}</span> stops working at once
        {apiKey.share_count > 0
          ? `, for you and the ${apiKey.share_count} ${apiKey.share_count === 1 ? 'person' : 'people'} it is shared with`
          : ''}
        . Its jobs and history stay. This cannot be undone.
      </p>
    </ConfirmDialog>
  );
}
