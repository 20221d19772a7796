import type { ReactNode } from 'react';
import { ApiError } from '../../client/api-error.ts';
import { Alert } from './alert.tsx';
import { Button } from './button.tsx';
import { ModalDialog } from './modal-dialog.tsx';

interface ConfirmDialogProps {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  /**
   * The way out, "Cancel" unless said otherwise. Where the action itself is a cancel ("Cancel 20 jobs"),
   * a second "Cancel" beside it would read as the same thing: the way out is then "Go back".
   */
  dismissLabel?: string;
  /** Red confirm button, for what cannot be undone. */
  danger?: boolean;
  pending?: boolean;
  /** The failure of the last attempt, shown in the dialog (which stays open to retry or cancel). */
  error?: unknown;
  onConfirm: () => void;
  onClose: () => void;
}

/** "Are you sure?" with the consequence spelled out. The way out has focus first: Enter alone never destroys. */
export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  dismissLabel = /^cancel\b/i.test(confirmLabel) ? 'Go back' : 'Cancel',
  danger = false,
  pending = false,
  error,
  onConfirm,
  onClose,
}: ConfirmDialogProps) {
  return (
    <ModalDialog
      title={title}
      onClose={onClose}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} data-autofocus>
            {dismissLabel}
          </Button>
          <Button variant={danger ? 'danger' : 'primary'} onClick={onConfirm} pending={pending}>
            {confirmLabel}
          </Button>
        </>
      }
    >
      <div className="flex flex-col gap-3 text-sm text-zinc-700 dark:text-zinc-300">
        {children}
        {error !== undefined && error !== null && <Alert tone="error">{errorMessage(error)}</Alert>}
      </div>
    </ModalDialog>
  );
}

/** The server's own sentence for a refused request, else a generic one. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  return error instanceof Error ? error.message : 'Something went wrong.';
}
