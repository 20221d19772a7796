import { Link } from '@tanstack/react-router';
import { memo } from 'react';
import type { Job } from '../../../../contract/jobs.ts';
import { cx } from '../../../components/cx.ts';
import { formatCredits } from '../../../format/credits.ts';
import { formatDateTime } from '../../../format/date-time.ts';
import { formatRelativeTime } from '../../../format/time.ts';
import { toolLabel } from '../../../format/tool-label.ts';
import { pluralize } from '../../../format/words.ts';
import { chargedText, jobCost } from './job-cost.ts';
import { jobExcerpt } from './job-excerpt.ts';
import { JobFailureLine, JobStatusCell } from './job-status.tsx';
import { JobThumb } from './job-thumb.tsx';

interface JobCardsProps {
  jobs: readonly Job[];
  hasMore: boolean;
  loadingMore: boolean;
  onLoadMore: () => void;
  selected: ReadonlySet<string>;
  onToggle: (id: string) => void;
  openId: string | undefined;
  now: number;
  modelNames: ReadonlyMap<string, string>;
}

/**
 * The feed on a phone: one card per job (picture, what was asked, status, cost, when), as a list, since
 * a table narrowed to a phone shows three columns of eight. Pages load on request.
 */
export function JobCards({
  jobs,
  hasMore,
  loadingMore,
  onLoadMore,
  selected,
  onToggle,
  openId,
  now,
  modelNames,
}: JobCardsProps) {
  return (
    <div>
      <ul aria-label="Jobs" className="flex flex-col gap-2">
        {jobs.map((job) => (
          <JobCard
            key={job.id}
            job={job}
            selected={selected.has(job.id)}
            open={job.id === openId}
            now={now}
            modelName={modelNames.get(job.model) ?? null}
            onToggle={onToggle}
          />
        ))}
      </ul>
      <p className="mt-3 flex items-center gap-2 text-xs text-zinc-600 dark:text-zinc-400">
        {hasMore ? (
          <button
            type="button"
            onClick={onLoadMore}
            disabled={loadingMore}
            className="font-medium text-zinc-900 underline underline-offset-2 dark:text-zinc-100"
          >
            {loadingMore ? 'Loading more jobs…' : 'Load more jobs'}
          </button>
        ) : (
          `All ${pluralize(jobs.length, 'job', 'jobs')} shown`
        )}
      </p>
    </div>
  );
}

const JobCard = memo(function JobCard({
  job,
  selected,
  open,
  now,
  modelName,
  onToggle,
}: {
  job: Job;
  selected: boolean;
  open: boolean;
  now: number;
  modelName: string | null;
  onToggle: (id: string) => void;
}) {
  const excerpt = jobExcerpt(job);
  const cost = jobCost(job);
  return (
    <li
      className={cx(
        'flex gap-3 rounded-xl border p-3',
        open
          ? 'border-indigo-300 bg-indigo-50 dark:border-indigo-800 dark:bg-indigo-950/40'
          : 'border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900',
      )}
    >
      <input
        type="checkbox"
        checked={selected}
        onChange={() => onToggle(job.id)}
        aria-label={`Select job ${job.id}`}
        className="mt-1 size-5 shrink-0 accent-zinc-900 dark:accent-zinc-100"
      />
      <JobThumb job={job} className="size-14" />
      <div className="flex min-w-0 flex-1 flex-col gap-1.5">
        <Link
          to="/jobs/$jobId"
          params={{ jobId: job.id }}
          search={(prev) => prev}
          className="line-clamp-2 text-sm font-medium text-zinc-900 hover:underline dark:text-zinc-100"
          title={job.id}
        >
          {excerpt ?? <span className="font-mono text-xs">{job.id}</span>}
          <span className="sr-only">, details of job {job.id}</span>
        </Link>
        <JobFailureLine job={job} />
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-zinc-600 dark:text-zinc-400">
          <JobStatusCell job={job} />
          <span>
            {toolLabel(job.tool)} ·{' '}
            <span title={`${job.model} (${job.provider_model})`}>{modelName ?? job.model}</span>
          </span>
        </div>
        <div className="flex items-center justify-between gap-3 text-xs text-zinc-600 dark:text-zinc-400">
          <span title={cost.title} className="tabular-nums">
            {chargedText(job) ?? `~${formatCredits(job.estimated_cost_cents)}`}
          </span>
          <time dateTime={job.created_at} title={formatDateTime(job.created_at)}>
            {formatRelativeTime(job.created_at, now)}
          </time>
        </div>
      </div>
    </li>
  );
});
