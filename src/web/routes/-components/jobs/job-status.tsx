import type { Job } from '../../../../contract/jobs.ts';
import { isTerminalJobStatus } from '../../../../contract/values.ts';
import { cx } from '../../../components/cx.ts';
import { StatusBadge, statusLabel } from '../../../components/job-status-badge.tsx';
import { jobErrorWords } from '../../../format/job-error.ts';

/** The status, and for a job under way its progress bar (a native <progress>: announced with its value). */
export function JobStatusCell({ job }: { job: Job }) {
  const active = !isTerminalJobStatus(job.status);
  return (
    <div className="flex min-w-0 flex-col items-start gap-1">
      <StatusBadge status={job.status} />
      {active && <JobProgress job={job} className="h-1 w-24" />}
    </div>
  );
}

export function JobProgress({ job, className }: { job: Job; className?: string }) {
  const label = job.progress_message ?? statusLabel(job.status);
  return (
    <progress
      aria-label={label}
      // No value: an indeterminate bar, until the job reports how far it is.
      value={job.progress ?? undefined}
      max={1}
      className={cx(
        'overflow-hidden rounded-full bg-zinc-200 dark:bg-zinc-800',
        '[&::-webkit-progress-bar]:bg-zinc-200 dark:[&::-webkit-progress-bar]:bg-zinc-800',
        '[&::-webkit-progress-value]:bg-sky-600 dark:[&::-webkit-progress-value]:bg-sky-400',
        '[&::-moz-progress-bar]:bg-sky-600 dark:[&::-moz-progress-bar]:bg-sky-400',
        className,
      )}
    />
  );
}

/** Why a failed job failed, in one line of words (the detail on hover and in the drawer). */
export function JobFailureLine({ job, className }: { job: Job; className?: string }) {
  if (job.status !== 'failed' || !job.error) return null;
  const words = jobErrorWords(job.error);
  return (
    <span
      title={words.detail ?? undefined}
      className={cx('block truncate text-xs text-red-700 dark:text-red-300', className)}
    >
      {words.title}
    </span>
  );
}
