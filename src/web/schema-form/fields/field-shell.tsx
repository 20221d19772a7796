import { type ReactNode, useId } from 'react';
import { cx } from '../../components/cx.ts';
import { InlineText } from './inline-text.tsx';

export interface FieldIds {
  id: string;
  hintId: string;
  errorId: string;
  /** For `aria-describedby`: the hint and the error, when shown. */
  describedBy: string | undefined;
}

export function useFieldIds(hint: string | undefined, error: string | undefined): FieldIds {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;
  return { id, hintId, errorId, describedBy };
}

interface FieldShellProps {
  ids: FieldIds;
  label: string;
  required: boolean;
  hint: string | undefined;
  error: string | undefined;
  /** Drawn at the right of the label (a character counter, a button). */
  aside?: ReactNode;
  className?: string;
  children: ReactNode;
}

/** Label, control, hint and error of one field; hint and error are tied to the control for screen readers. */
export function FieldShell({
  ids,
  label,
  required,
  hint,
  error,
  aside,
  className,
  children,
}: FieldShellProps) {
  return (
    <div className={cx('flex min-w-0 flex-col gap-1.5', className)}>
      <div className="flex items-baseline justify-between gap-3">
        <label htmlFor={ids.id} className="text-sm font-medium text-zinc-800 dark:text-zinc-200">
          {label}
          {required && (
            <span className="text-red-700 dark:text-red-400" aria-hidden="true">
              {' '}
              *
            </span>
          )}
        </label>
        {aside}
      </div>
      {children}
      <FieldNotes ids={ids} hint={hint} error={error} />
    </div>
  );
}

/** The hint and the error below a control (also used by fieldsets, which label themselves). */
export function FieldNotes({
  ids,
  hint,
  error,
}: {
  ids: FieldIds;
  hint: string | undefined;
  error: string | undefined;
}) {
  return (
    <>
      {hint && (
        <p id={ids.hintId} className="text-xs text-zinc-600 dark:text-zinc-400">
          <InlineText text={hint} />
        </p>
      )}
      {error && (
        <p id={ids.errorId} className="text-xs font-medium text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
    </>
  );
}

/** Fieldset for groups of controls (radio sets, objects): the legend is the label. */
export function FieldsetShell({
  ids,
  label,
  required,
  hint,
  error,
  className,
  children,
}: Omit<FieldShellProps, 'aside'>) {
  return (
    <fieldset
      className={cx('flex min-w-0 flex-col gap-1.5', className)}
      aria-describedby={ids.describedBy}
      aria-invalid={error ? true : undefined}
    >
      <legend className="mb-1.5 text-sm font-medium text-zinc-800 dark:text-zinc-200">
        {label}
        {required && (
          <span className="text-red-700 dark:text-red-400" aria-hidden="true">
            {' '}
            *
          </span>
        )}
      </legend>
      {children}
      <FieldNotes ids={ids} hint={hint} error={error} />
    </fieldset>
  );
}
