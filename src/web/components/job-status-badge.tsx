import type { JobStatus } from '../../contract/jobs.ts';
import { isTerminalJobStatus } from '../../contract/values.ts';
import { formatStatus } from '../format/words.ts';
import { cx } from './cx.ts';

/* A job's status as a coloured badge (a pulse while it is under way); the feed and the playground share it. */

const TONES: Record<JobStatus, string> = {
  queued: 'bg-zinc-100 text-zinc-700 ring-zinc-200 dark:bg-zinc-800 dark:text-zinc-300 dark:ring-zinc-700',
  submitting: 'bg-sky-50 text-sky-800 ring-sky-200 dark:bg-sky-950/50 dark:text-sky-300 dark:ring-sky-900',
  running: 'bg-sky-50 text-sky-800 ring-sky-200 dark:bg-sky-950/50 dark:text-sky-300 dark:ring-sky-900',
  completed:
    'bg-emerald-50 text-emerald-800 ring-emerald-200 dark:bg-emerald-950/50 dark:text-emerald-300 dark:ring-emerald-900',
  failed: 'bg-red-50 text-red-800 ring-red-200 dark:bg-red-950/50 dark:text-red-300 dark:ring-red-900',
  cancelled: 'bg-transparent text-zinc-600 ring-zinc-300 dark:text-zinc-400 dark:ring-zinc-700',
};

export function statusLabel(status: JobStatus): string {
  return formatStatus(status);
}

export function StatusBadge({ status }: { status: JobStatus }) {
  return (
    <span
      className={cx(
        'inline-flex items-center gap-1.5 rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset',
        TONES[status],
      )}
    >
      {!isTerminalJobStatus(status) && (
        <span
          aria-hidden="true"
          className="size-1.5 animate-pulse rounded-full bg-current motion-reduce:animate-none"
        />
      )}
      {formatStatus(status)}
    </span>
  );
}
