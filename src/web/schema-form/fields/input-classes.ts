import { cx } from '../../components/cx.ts';

/** The look of every text-like control of generated forms (matches components/text-field.tsx). */
export function inputClasses(invalid: boolean, extra?: string): string {
  return cx(
    'w-full rounded-lg border bg-white px-3 text-sm text-zinc-900 shadow-sm transition-colors',
    'placeholder:text-zinc-400 dark:bg-zinc-900 dark:text-zinc-100 dark:placeholder:text-zinc-500',
    'focus-visible:outline-2 focus-visible:outline-offset-0 disabled:opacity-60',
    invalid
      ? 'border-red-500 focus-visible:outline-red-500 dark:border-red-400'
      : 'border-zinc-300 dark:border-zinc-700',
    extra,
  );
}

/** One option of a segmented control drawn over a native radio button (arrow keys, one tab stop). */
export function segmentClasses(checked: boolean): string {
  return cx(
    'relative cursor-pointer rounded-md px-2.5 py-1 text-sm font-medium whitespace-nowrap transition-colors',
    'has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-indigo-600 dark:has-[:focus-visible]:outline-indigo-400',
    checked
      ? 'bg-white text-zinc-900 shadow-sm dark:bg-zinc-950 dark:text-white'
      : 'text-zinc-600 hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-zinc-100',
  );
}

export const SEGMENTS = 'inline-flex flex-wrap gap-0.5 rounded-lg bg-zinc-100 p-1 dark:bg-zinc-800';
