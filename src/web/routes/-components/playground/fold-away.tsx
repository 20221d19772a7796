import { type ReactNode, useEffect, useId, useState } from 'react';
import { get, useFormState, useWatch } from 'react-hook-form';
import { cx } from '../../../components/cx.ts';

/** How many values are set under a form path (empty strings and empty lists do not count). */
export function countSet(value: unknown): number {
  if (value === undefined || value === null || value === '') return 0;
  if (Array.isArray(value)) return value.length > 0 ? 1 : 0;
  if (typeof value === 'object') return Object.values(value).reduce<number>((n, v) => n + countSet(v), 0);
  return 1;
}

interface FoldAwayProps {
  title: string;
  /** The form path of the group: opens by itself when a field inside has an error. */
  name: string;
  note?: ReactNode;
  children: ReactNode;
  className?: string;
}

/** A group of seldom-used fields, folded away; the summary says how many are set. */
export function FoldAway({ title, name, note, children, className }: FoldAwayProps) {
  const [open, setOpen] = useState(false);
  const { errors } = useFormState({ name });
  const hasError = Boolean(get(errors, name));
  const set = countSet(useWatch({ name }));
  const panelId = useId();

  useEffect(() => {
    if (hasError) setOpen(true);
  }, [hasError]);

  return (
    <div className={cx('rounded-xl border border-zinc-200 dark:border-zinc-800', className)}>
      <button
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen(!open)}
        className="flex w-full items-center justify-between gap-3 rounded-xl px-4 py-3 text-left text-sm hover:bg-zinc-50 dark:hover:bg-zinc-900"
      >
        <span className="flex items-center gap-2 font-medium">
          <svg
            aria-hidden="true"
            viewBox="0 0 16 16"
            className={cx('size-3.5 transition-transform', open && 'rotate-90')}
            fill="currentColor"
          >
            <path d="M6 3.5 10.5 8 6 12.5z" />
          </svg>
          {title}
        </span>
        <span className="flex items-center gap-2 text-xs text-zinc-600 dark:text-zinc-400">
          {hasError && <span className="font-medium text-red-700 dark:text-red-400">Needs attention</span>}
          {set > 0 ? `${set} set` : note}
        </span>
      </button>
      <div id={panelId} hidden={!open} className="border-t border-zinc-200 px-4 py-4 dark:border-zinc-800">
        {children}
      </div>
    </div>
  );
}
