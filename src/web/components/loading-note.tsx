import type { ReactNode } from 'react';
import { cx } from './cx.ts';
import { Spinner } from './spinner.tsx';

const textSize = { sm: 'text-sm', xs: 'text-xs' } as const;

/**
 * The console's "loading" line: a spinner and a short text ("Loading jobs…"), announced to screen
 * readers as a status. `className` is appended (margins, padding).
 */
export function LoadingNote({
  children,
  size = 'sm',
  className,
}: {
  children: ReactNode;
  size?: 'sm' | 'xs';
  className?: string;
}) {
  return (
    <p
      role="status"
      className={cx('flex items-center gap-2', textSize[size], 'text-zinc-600 dark:text-zinc-400', className)}
    >
      <Spinner /> {children}
    </p>
  );
}
