import { type InputHTMLAttributes, type Ref, useId } from 'react';
import { cx } from './cx.ts';

interface TextFieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  hint?: string;
  error?: string;
  /**
   * The id of a message shown elsewhere (an alert under the form) that refuses this field's value: the
   * field then reads as invalid and is described by it, as with its own error.
   */
  refusedBy?: string;
  /** Reaches the input itself: react-hook-form's register() hands one, to focus a field in error and write reset values. */
  ref?: Ref<HTMLInputElement>;
}

/** A labelled input with an optional hint and error, both wired to it for screen readers. */
export function TextField({ label, hint, error, refusedBy, className, ref, ...input }: TextFieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const invalid = Boolean(error || refusedBy);
  const describedBy =
    [hint ? hintId : null, error ? errorId : null, refusedBy ?? null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={cx('flex flex-col gap-1.5', className)}>
      <label htmlFor={id} className="text-sm font-medium text-zinc-800 dark:text-zinc-200">
        {label}
      </label>
      <input
        id={id}
        ref={ref}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
        className={cx(
          'h-10 w-full rounded-lg border bg-white px-3 text-sm text-zinc-900 shadow-sm transition-colors',
          'placeholder:text-zinc-400 dark:bg-zinc-900 dark:text-zinc-100 dark:placeholder:text-zinc-500',
          'focus-visible:outline-2 focus-visible:outline-offset-0',
          invalid
            ? 'border-red-500 focus-visible:outline-red-500 dark:border-red-400'
            : 'border-zinc-300 dark:border-zinc-700',
        )}
        {...input}
      />
      {hint && (
        <p id={hintId} className="text-xs text-zinc-600 dark:text-zinc-400">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="text-xs font-medium text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
    </div>
  );
}
