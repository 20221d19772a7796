import { Link } from '@tanstack/react-router';
import { memo } from 'react';
import type { Job } from '../../../../contract/jobs.ts';
import { isTerminalJobStatus } from '../../../../contract/values.ts';
import { cx } from '../../../components/cx.ts';
import { formatDateTime } from '../../../format/date-time.ts';
import { formatDuration } from '../../../format/duration.ts';
import { formatRelativeTime } from '../../../format/time.ts';
import { toolLabel } from '../../../format/tool-label.ts';
import { jobCost } from './job-cost.ts';
import { jobExcerpt } from './job-excerpt.ts';
import { JobFailureLine, JobStatusCell } from './job-status.tsx';
import { JobThumb } from './job-thumb.tsx';
import { jobTimes } from './job-times.ts';

/** Fixed, so the virtualiser can place rows without measuring them. */
export const ROW_HEIGHT = 56;

interface JobRowProps {
  job: Job;
  /** 1-based row index in the whole table (the header is row 1). */
  rowIndex: number;
  selected: boolean;
  open: boolean;
  /** For the live duration and relative time; terminal rows get a coarser clock so they re-render less. */
  now: number;
  /** The model's name in the catalog, when it has one (the id shows on hover). */
  modelName: string | null;
  onToggle: (id: string) => void;
  onOpen: (id: string) => void;
}

/** Queue waits under a second are not worth a line of their own. */
const NOTABLE_WAIT_MS = 1_000;

/**
 * How long the job ran (so far, while it runs), with the time it waited in the queue apart beneath: a
 * job cancelled while queued did not run, whatever it waited.
 */
function Duration({ job, now }: { job: Job; now: number }) {
  const { queuedMs, runMs } = jobTimes(job, now);
  const waited = queuedMs >= NOTABLE_WAIT_MS || runMs === null;
  return (
    <>
      <span className="block">
        {runMs !== null ? formatDuration(runMs) : isTerminalJobStatus(job.status) ? 'Did not run' : 'Queued'}
      </span>
      {waited && (
        <span className="block text-xs text-zinc-500 dark:text-zinc-500">
          {formatDuration(queuedMs)} in queue
        </span>
      )}
    </>
  );
}

const CELL = 'px-3 align-middle';

export const JobRow = memo(function JobRow({
  job,
  rowIndex,
  selected,
  open,
  now,
  modelName,
  onToggle,
  onOpen,
}: JobRowProps) {
  const excerpt = jobExcerpt(job);
  const cost = jobCost(job);
  return (
    <tr
      aria-rowindex={rowIndex}
      style={{ height: ROW_HEIGHT }}
      // A click anywhere on the row opens it, as the link in it does (the link is what keyboards use).
      onClick={(event) => {
        if (!(event.target as Element).closest('a, button, input, label')) onOpen(job.id);
      }}
      className={cx(
        'cursor-pointer',
        'border-b border-zinc-100 dark:border-zinc-800/80',
        open
          ? 'bg-indigo-50 dark:bg-indigo-950/40'
          : selected
            ? 'bg-zinc-50 dark:bg-zinc-800/40'
            : 'hover:bg-zinc-50 dark:hover:bg-zinc-800/30',
      )}
    >
      <td className="w-10 pl-4">
        <input
          type="checkbox"
          checked={selected}
          onChange={() => onToggle(job.id)}
          aria-label={`Select job ${job.id}`}
          className="size-4 rounded border-zinc-300 accent-zinc-900 dark:border-zinc-600 dark:accent-zinc-100"
        />
      </td>
      <td className="px-1 align-middle">
        <JobThumb job={job} />
      </td>
      <td className={CELL}>
        <JobStatusCell job={job} />
      </td>
      <td className={cx(CELL, 'text-zinc-700 dark:text-zinc-300')}>{toolLabel(job.tool)}</td>
      <td className={CELL}>
        {modelName ? (
          <span
            className="block truncate text-zinc-700 dark:text-zinc-300"
            title={`${job.model} (${job.provider_model})`}
          >
            {modelName}
          </span>
        ) : (
          <code
            className="block truncate text-xs text-zinc-700 dark:text-zinc-300"
            title={job.provider_model}
          >
            {job.model}
          </code>
        )}
      </td>
      <td className={CELL}>
        <Link
          to="/jobs/$jobId"
          params={{ jobId: job.id }}
          search={(prev) => prev}
          className="block truncate font-medium text-zinc-900 hover:underline dark:text-zinc-100"
          title={excerpt ? `${excerpt}\n${job.id}` : job.id}
        >
          {excerpt ?? <span className="font-mono text-xs text-zinc-600 dark:text-zinc-400">{job.id}</span>}
          <span className="sr-only">, details of job {job.id}</span>
        </Link>
        <JobFailureLine job={job} />
      </td>
      <td className={cx(CELL, 'text-right tabular-nums')} title={cost.title}>
        {cost.text}
      </td>
      <td className={cx(CELL, 'whitespace-nowrap text-zinc-600 dark:text-zinc-400')}>
        <time dateTime={job.created_at} title={formatDateTime(job.created_at)}>
          {formatRelativeTime(job.created_at, now)}
        </time>
      </td>
      <td
        className={cx(
          CELL,
          'pr-4 text-right whitespace-nowrap tabular-nums text-zinc-600 dark:text-zinc-400',
        )}
      >
        <Duration job={job} now={now} />
      </td>
    </tr>
  );
});
