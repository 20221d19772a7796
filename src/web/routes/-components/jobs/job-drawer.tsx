import { useNavigate } from '@tanstack/react-router';
import { type ReactNode, useId, useRef } from 'react';
import { CloseButton } from '../../../components/close-button.tsx';
import { useModal } from '../../../components/use-modal.ts';

interface JobDrawerProps {
  title: ReactNode;
  children: ReactNode;
}

/**
 * The detail drawer: a modal <dialog> on the right (focus stays inside, the feed behind is inert,
 * Escape closes). Closing goes back to /jobs with the same filters, and focus back where it was.
 */
export function JobDrawer({ title, children }: JobDrawerProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const headingId = useId();
  const navigate = useNavigate();

  useModal(ref);

  const close = () => void navigate({ to: '/jobs', search: (prev) => prev });

  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: the click is on the backdrop; keyboards close with Escape (onCancel).
    <dialog
      ref={ref}
      aria-labelledby={headingId}
      onCancel={(event) => {
        event.preventDefault();
        close();
      }}
      onClick={(event) => {
        // A click on the backdrop lands on the dialog itself.
        if (event.target === event.currentTarget) close();
      }}
      className="fixed inset-y-0 right-0 left-auto m-0 h-dvh max-h-none w-full max-w-2xl overflow-hidden border-l border-zinc-200 bg-zinc-50 p-0 text-zinc-900 shadow-2xl backdrop:bg-zinc-950/40 dark:border-zinc-800 dark:bg-zinc-950 dark:text-zinc-100"
    >
      <div className="flex h-full flex-col">
        <header className="flex items-start justify-between gap-4 border-b border-zinc-200 bg-white px-6 py-4 dark:border-zinc-800 dark:bg-zinc-900">
          <h2
            id={headingId}
            tabIndex={-1}
            data-autofocus
            className="min-w-0 text-lg font-semibold focus:outline-none"
          >
            {title}
          </h2>
          <CloseButton label="Close details" onClick={close} />
        </header>
        <div className="flex-1 overflow-y-auto px-6 py-5">{children}</div>
      </div>
    </dialog>
  );
}
