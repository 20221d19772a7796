import { type ReactNode, useId, useRef } from 'react';
import { CloseButton } from './close-button.tsx';
import { cx } from './cx.ts';
import { useModal } from './use-modal.ts';

interface ModalDialogProps {
  title: ReactNode;
  /** A sentence under the title, read out with it. */
  description?: ReactNode;
  onClose: () => void;
  children: ReactNode;
  /** Buttons at the bottom, right-aligned. */
  footer?: ReactNode;
  /** `xl` for side-by-side content (comparing runs). */
  size?: 'md' | 'lg' | 'xl';
}

/**
 * A centred modal <dialog>, open while it is mounted (focus handling: useModal); Escape or a click on
 * the backdrop closes.
 */
export function ModalDialog({
  title,
  description,
  onClose,
  children,
  footer,
  size = 'md',
}: ModalDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descriptionId = useId();

  useModal(ref);

  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: the click is on the backdrop; keyboards close with Escape (onCancel).
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onClick={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
      className={cx(
        'm-auto w-[calc(100%-2rem)] rounded-2xl border border-zinc-200 bg-white p-0 text-zinc-900 shadow-2xl backdrop:bg-zinc-950/50 dark:border-zinc-800 dark:bg-zinc-900 dark:text-zinc-100',
        { md: 'max-w-lg', lg: 'max-w-2xl', xl: 'max-w-6xl' }[size],
      )}
    >
      <div className="flex max-h-[85dvh] flex-col">
        <header className="flex items-start justify-between gap-4 px-6 pt-5">
          <div className="min-w-0">
            <h2 id={titleId} className="text-lg font-semibold">
              {title}
            </h2>
            {description && (
              <p id={descriptionId} className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
                {description}
              </p>
            )}
          </div>
          <CloseButton label="Close" onClick={onClose} />
        </header>
        <div className="flex-1 overflow-y-auto px-6 py-4">{children}</div>
        {footer && (
          <footer className="flex flex-wrap items-center justify-end gap-2 border-t border-zinc-200 px-6 py-4 dark:border-zinc-800">
            {footer}
          </footer>
        )}
      </div>
    </dialog>
  );
}
