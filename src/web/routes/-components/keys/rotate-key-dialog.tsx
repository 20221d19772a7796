import { useId, useState } from 'react';
import type { z } from 'zod';
import type { ApiKey, CreatedApiKey } from '../../../../contract/api-keys.ts';
import { Alert } from '../../../components/alert.tsx';
import { Button } from '../../../components/button.tsx';
import { errorMessage } from '../../../components/confirm-dialog.tsx';
import { ModalDialog } from '../../../components/modal-dialog.tsx';
import { formatDateTime } from '../../../format/date-time.ts';
import { useRotateApiKey } from '../../../queries/api-keys.ts';
import { keyPreview } from './key-preview.ts';
import { NewSecretDialog } from './new-secret-dialog.tsx';

/** How long the old secret may keep working, for the time it takes to deploy the new one. */
const GRACE_CHOICES = [
  { seconds: 0, label: 'Stop it now' },
  { seconds: 3600, label: '1 hour' },
  { seconds: 86_400, label: '24 hours' },
  { seconds: 7 * 86_400, label: '7 days' },
] as const;

type Rotated = z.infer<typeof CreatedApiKey>;

/** Replaces a key's secret, keeping the old one for a chosen grace; shows the new one once. */
export function RotateKeyDialog({ apiKey, onClose }: { apiKey: ApiKey; onClose: () => void }) {
  const [rotated, setRotated] = useState<Rotated | null>(null);
  if (rotated) return <RotatedKeyShown rotated={rotated} onClose={onClose} />;
  return <RotateKeyForm apiKey={apiKey} onRotated={setRotated} onClose={onClose} />;
}

function RotateKeyForm({
  apiKey,
  onRotated,
  onClose,
}: {
  apiKey: ApiKey;
  onRotated: (rotated: Rotated) => void;
  onClose: () => void;
}) {
  const id = useId();
  const [grace, setGrace] = useState<number>(3600);
  const rotate = useRotateApiKey(apiKey.id);
  return (
    <ModalDialog
      title={`Rotate “${apiKey.name}”`}
      description={`A new secret replaces ${keyPreview(apiKey)}; the key keeps its restrictions, shares and history.`}
      onClose={onClose}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} data-autofocus>
            Cancel
          </Button>
          <Button
            pending={rotate.isPending}
            onClick={() => rotate.mutate(grace, { onSuccess: (answer) => onRotated(answer) })}
          >
            Rotate key
          </Button>
        </>
      }
    >
      <fieldset className="flex flex-col gap-2 text-sm">
        <legend className="mb-1 font-medium text-zinc-800 dark:text-zinc-200">The old secret</legend>
        {GRACE_CHOICES.map((choice) => (
          <label key={choice.seconds} className="flex items-center gap-3 text-zinc-800 dark:text-zinc-200">
            <input
              type="radio"
              name={`${id}-grace`}
              checked={grace === choice.seconds}
              onChange={() => setGrace(choice.seconds)}
              className="size-4 accent-zinc-900 dark:accent-zinc-100"
            />
            {choice.seconds === 0 ? choice.label : `Keeps working for ${choice.label}`}
          </label>
        ))}
      </fieldset>
      {rotate.error && (
        <div className="mt-4">
          <Alert tone="error">{errorMessage(rotate.error)}</Alert>
        </div>
      )}
    </ModalDialog>
  );
}

function RotatedKeyShown({ rotated, onClose }: { rotated: Rotated; onClose: () => void }) {
  const until = rotated.key.previous_secret_expires_at;
  return (
    <NewSecretDialog
      title={`New secret for “${rotated.key.name}”`}
      revealable={rotated.key.revealable}
      note={
        until
          ? `The old secret keeps working until ${formatDateTime(until)}; then only this one does.`
          : 'The old secret has stopped working.'
      }
      secret={rotated.api_key}
      onClose={onClose}
    />
  );
}
