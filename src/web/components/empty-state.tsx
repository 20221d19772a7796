import type { ReactNode } from 'react';

interface EmptyStateProps {
  title: string;
  children: ReactNode;
  action?: ReactNode;
}

/** A calm placeholder for something that is not there (yet). */
export function EmptyState({ title, children, action }: EmptyStateProps) {
  return (
    <section
      aria-label={title}
      className="flex flex-col items-center rounded-xl border border-dashed border-zinc-300 bg-white px-6 py-16 text-center dark:border-zinc-700 dark:bg-zinc-900/40"
    >
      <div
        aria-hidden="true"
        className="mb-4 grid size-10 place-items-center rounded-full bg-zinc-100 text-zinc-500 dark:bg-zinc-800 dark:text-zinc-400"
      >
        <svg
          aria-hidden="true"
          viewBox="0 0 20 20"
          fill="none"
          className="size-5"
          stroke="currentColor"
          strokeWidth="1.6"
        >
          <rect x="3" y="3" width="14" height="14" rx="3" />
          <path d="M7 10h6M10 7v6" strokeLinecap="round" />
        </svg>
      </div>
      <h2 className="text-base font-semibold text-zinc-900 dark:text-zinc-100">{title}</h2>
      <div className="mt-1.5 max-w-md text-sm text-zinc-600 dark:text-zinc-400">{children}</div>
      {action && <div className="mt-6">{action}</div>}
    </section>
  );
}
