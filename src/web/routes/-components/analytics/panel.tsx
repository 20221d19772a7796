import type { UseQueryResult } from '@tanstack/react-query';
import { type ReactNode, useId } from 'react';
import { ApiError } from '../../../../client/api-error.ts';
import { Button } from '../../../components/button.tsx';
import { cx } from '../../../components/cx.ts';
import { Spinner } from '../../../components/spinner.tsx';

interface PanelProps {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
  className?: string;
  children: ReactNode;
}

/** A titled section of the analytics page; its heading names the region for screen readers. */
export function Panel({ title, description, actions, className, children }: PanelProps) {
  const headingId = useId();
  return (
    <section
      aria-labelledby={headingId}
      className={cx(
        'rounded-xl border border-zinc-200 bg-white p-5 shadow-sm dark:border-zinc-800 dark:bg-zinc-900',
        className,
      )}
    >
      <div className="mb-4 flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 id={headingId} className="text-base font-semibold text-zinc-900 dark:text-zinc-100">
            {title}
          </h2>
          {description && <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{description}</p>}
        </div>
        {actions && <div className="flex flex-wrap items-center gap-2">{actions}</div>}
      </div>
      {children}
    </section>
  );
}

interface QueryStateProps<T> {
  query: UseQueryResult<T>;
  label: string;
  children: (data: T) => ReactNode;
}

/**
 * Loading, error (with retry) or the data of one widget, so one failed request does not blank the page.
 * While new data loads over old (a changed filter), the old stays, dimmed and marked busy.
 */
export function QueryState<T>({ query, label, children }: QueryStateProps<T>) {
  if (query.isPending) {
    return (
      <div
        role="status"
        className="flex h-40 items-center justify-center gap-2 text-sm text-zinc-600 dark:text-zinc-400"
      >
        <Spinner />
        Loading {label}…
      </div>
    );
  }
  if (query.isError) {
    const error = query.error;
    return (
      <div role="alert" className="flex flex-col items-start gap-2 py-6 text-sm">
        <p className="font-medium text-red-800 dark:text-red-300">Could not load {label}.</p>
        <p className="text-zinc-700 dark:text-zinc-300">
          {error instanceof Error ? error.message : String(error)}
        </p>
        {error instanceof ApiError && error.requestId && (
          <p className="text-xs text-zinc-600 dark:text-zinc-400">
            Request id <code className="font-mono select-all">{error.requestId}</code>
          </p>
        )}
        <Button variant="secondary" size="sm" onClick={() => void query.refetch()}>
          Retry now
        </Button>
      </div>
    );
  }
  return (
    <div
      aria-busy={query.isFetching || undefined}
      className={cx(query.isPlaceholderData && 'opacity-60 transition-opacity')}
    >
      {children(query.data)}
    </div>
  );
}

interface ViewToggleProps {
  asTable: boolean;
  onChange: (asTable: boolean) => void;
  label: string;
}

/** Chart or table: every chart has a table with the same numbers. */
export function ViewToggle({ asTable, onChange, label }: ViewToggleProps) {
  return (
    <Button variant="ghost" size="sm" aria-pressed={asTable} onClick={() => onChange(!asTable)}>
      {asTable ? `Show ${label} as chart` : `Show ${label} as table`}
    </Button>
  );
}
