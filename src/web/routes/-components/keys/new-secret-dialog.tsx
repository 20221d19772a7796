import type { ReactNode } from 'react';
import { Alert } from '../../../components/alert.tsx';
import { Button } from '../../../components/button.tsx';
import { ModalDialog } from '../../../components/modal-dialog.tsx';
import { SecretValue } from './secret-value.tsx';

/**
 * A key's new secret, shown the one time the server sends it (a new key, a rotation): a warning to copy
 * it now (a revealable key can be shown again, so its warning says less), what follows for this key, the
 * secret with its Copy button, and anything the moment adds below.
 */
export function NewSecretDialog({
  title,
  revealable,
  note,
  secret,
  onClose,
  children,
}: {
  title: string;
  revealable: boolean;
  note: string;
  secret: string;
  onClose: () => void;
  children?: ReactNode;
}) {
  return (
    <ModalDialog
      title={title}
      onClose={onClose}
      footer={
        <Button onClick={onClose} data-autofocus>
          Done
        </Button>
      }
    >
      <div className="flex flex-col gap-4">
        <Alert tone="error" title={revealable ? 'Copy it now' : 'Copy it now: it will not be shown again'}>
          {note}
        </Alert>
        <SecretValue label="API key" value={secret} />
        {children}
      </div>
    </ModalDialog>
  );
}
