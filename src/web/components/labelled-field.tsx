import { type ReactNode, useId } from 'react';
import { cx } from './cx.ts';

/** A native select (or date input) in a filter bar: full width of its field, as tall as a button. */
export const FIELD_SELECT =
  'h-10 w-full rounded-lg border border-zinc-300 bg-white px-2.5 text-sm text-zinc-900 shadow-sm dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100';

interface LabelledFieldProps {
  label: string;
  /** On the wrapper, e.g. a width. */
  className?: string;
  /** A small muted label, for a dense toolbar (Files). */
  compact?: boolean;
  /** The control, given the id its label points at. */
  children: (id: string) => ReactNode;
}

/** A visible label above one control (select, input) of a filter or settings bar. */
export function LabelledField({ label, className, compact = false, children }: LabelledFieldProps) {
  const id = useId();
  return (
    <div className={cx('flex flex-col', compact ? 'gap-1' : 'gap-1.5', className)}>
      <label
        htmlFor={id}
        className={
          compact
            ? 'text-xs font-medium text-zinc-600 dark:text-zinc-400'
            : 'text-sm font-medium text-zinc-800 dark:text-zinc-200'
        }
      >
        {label}
      </label>
      {children(id)}
    </div>
  );
}
