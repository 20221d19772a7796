import type { ReactNode } from 'react';
import { cx } from './cx.ts';

/** A body cell of a bordered data table (keys, members): roomy rows, content centred. */
export const TABLE_CELL = 'px-3 py-3 align-middle';

/**
 * A column heading of the console's bordered data tables (keys, members, jobs). Colour and
 * wrapping come from the `<thead>`, so each table keeps its own.
 */
export function ColumnHeading({ className, children }: { className?: string; children: ReactNode }) {
  return (
    <th scope="col" className={cx('px-3 py-2.5 text-left text-xs font-medium', className)}>
      {children}
    </th>
  );
}

interface DataTableProps {
  /** Read by screen readers only: what the table lists. */
  caption: string;
  /** Below this width the frame scrolls sideways instead of squeezing columns, e.g. `min-w-[40rem]`. */
  minWidth: string;
  /** The `ColumnHeading`s, in order. */
  headings: ReactNode;
  /** The rows. */
  children: ReactNode;
}

/** A bordered, horizontally scrolling table with one heading row and ruled rows (Keys, Team). */
export function DataTable({ caption, minWidth, headings, children }: DataTableProps) {
  return (
    <div className="relative overflow-x-auto rounded-xl border border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900">
      <table className={cx('w-full text-sm', minWidth)}>
        <caption className="sr-only">{caption}</caption>
        <thead className="border-b border-zinc-200 whitespace-nowrap text-zinc-600 dark:border-zinc-800 dark:text-zinc-400">
          <tr>{headings}</tr>
        </thead>
        <tbody className="divide-y divide-zinc-200 dark:divide-zinc-800">{children}</tbody>
      </table>
    </div>
  );
}
