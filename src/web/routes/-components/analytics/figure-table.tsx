import type { ReactNode } from 'react';
import { cx } from '../../../components/cx.ts';

/** The heading row of the analytics figure tables (spend per bucket, breakdown, top identities). */
export const FIGURE_TABLE_HEAD = 'text-xs text-zinc-600 uppercase dark:text-zinc-400';

/** A column heading of an analytics figure table; figures are right-aligned, the last column has no gutter. */
export function FigureHeading({
  numeric = false,
  last = false,
  children,
}: {
  numeric?: boolean;
  last?: boolean;
  children: ReactNode;
}) {
  return (
    <th scope="col" className={cx('py-2 font-medium', !last && 'pr-4', numeric && 'text-right')}>
      {children}
    </th>
  );
}
