import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Alert } from '../../../components/alert.tsx';
import { Button } from '../../../components/button.tsx';
import { ConfirmDialog, errorMessage } from '../../../components/confirm-dialog.tsx';
import { CopyButton } from '../../../components/copy-button.tsx';
import { FIELD_SELECT } from '../../../components/labelled-field.tsx';
import { formatDateTime } from '../../../format/date-time.ts';
import { meQueryOptions } from '../../../queries/me.ts';
import { useRotateWebhookSecret } from '../../../queries/webhooks.ts';

/** The overlaps offered (the API takes any number of seconds up to a week). */
export const OVERLAP_CHOICES = [
  { seconds: 0, label: 'None: the old secret stops now' },
  { seconds: 3_600, label: '1 hour' },
  { seconds: 86_400, label: '24 hours' },
  { seconds: 604_800, label: '7 days' },
] as const;

/**
 * Rotate the team's webhook signing secret: owners and managers, with a session. During the overlap every
 * webhook carries a signature under each secret, so receivers switch without rejecting one. The new secret
 * is shown here once (never cached), with a copy button.
 */
export function WebhookSecretRotation() {
  const me = useQuery(meQueryOptions());
  const rotate = useRotateWebhookSecret();
  const [overlap, setOverlap] = useState<number>(86_400);
  const [confirming, setConfirming] = useState(false);
  const selectId = useId();
  const canRotate = me.data?.role === 'owner' || me.data?.role === 'manager';
  const rotated = rotate.data;

  if (me.isSuccess && !canRotate) {
    return (
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        Only owners and managers of the team rotate the signing secret.
      </p>
    );
  }
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-end gap-3">
        <div className="flex flex-col gap-1.5">
          <label htmlFor={selectId} className="text-sm font-medium text-zinc-800 dark:text-zinc-200">
            Old secret keeps signing for
          </label>
          <select
            id={selectId}
            className={FIELD_SELECT}
            value={overlap}
            onChange={(e) => setOverlap(Number(e.target.value))}
          >
            {OVERLAP_CHOICES.map((c) => (
              <option key={c.seconds} value={c.seconds}>
                {c.label}
              </option>
            ))}
          </select>
        </div>
        <Button variant="secondary" onClick={() => setConfirming(true)} disabled={!me.isSuccess}>
          Rotate secret
        </Button>
      </div>
      {confirming && (
        <ConfirmDialog
          title="Rotate the webhook secret?"
          confirmLabel="Rotate"
          danger={overlap === 0}
          pending={rotate.isPending}
          error={rotate.error}
          onClose={() => setConfirming(false)}
          onConfirm={() => rotate.mutate(overlap, { onSuccess: () => setConfirming(false) })}
        >
          <p>
            Webhooks will be signed with a new secret.{' '}
            {overlap === 0
              ? 'Receivers still verifying with the current secret will reject them from now on.'
              : `For ${OVERLAP_CHOICES.find((c) => c.seconds === overlap)?.label}, they also carry a signature under the current secret, so receivers can switch in the meantime.`}
          </p>
        </ConfirmDialog>
      )}
      {rotated && (
        <Alert tone="success" title="New secret">
          <p>Copy it now: it is not shown again here.</p>
          <div className="mt-2 flex items-center gap-2">
            <code className="min-w-0 font-mono text-xs break-all select-all">{rotated.secret}</code>
            <CopyButton value={rotated.secret} label="Copy secret" />
          </div>
          <p className="mt-2">
            {rotated.previous_secret_expires_at
              ? `The old secret also signs webhooks until ${formatDateTime(rotated.previous_secret_expires_at)}.`
              : 'The old secret no longer signs webhooks.'}
          </p>
        </Alert>
      )}
      {rotate.isError && !confirming && (
        <Alert tone="error" title="Not rotated">
          {errorMessage(rotate.error)}
        </Alert>
      )}
    </div>
  );
}
