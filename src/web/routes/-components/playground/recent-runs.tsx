import { useInfiniteQuery } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import type { ToolKey } from '../../../../contract/common.ts';
import type { Job } from '../../../../contract/jobs.ts';
import { Alert } from '../../../components/alert.tsx';
import { Button } from '../../../components/button.tsx';
import { cx } from '../../../components/cx.ts';
import { StatusBadge } from '../../../components/job-status-badge.tsx';
import { LoadingNote } from '../../../components/loading-note.tsx';
import { formatCredits } from '../../../format/credits.ts';
import { toolLabel } from '../../../format/tool-label.ts';
import { recentRunsQueryOptions } from '../../../queries/generation.ts';
import { startedWhen } from './started-when.ts';

// Comparing is occasional and brings its own dialog, table and media: asked for when a run is first
// ticked, not with the playground's first paint.
const loadCompare = () => import('./compare-view.tsx');
const CompareDialog = lazy(() => loadCompare().then((module) => ({ default: module.CompareDialog })));

interface RecentRunsProps {
  tool: ToolKey;
  currentJobId: string | undefined;
  /** Which job's rerun is being started, if any. */
  rerunning: string | null;
  onShow: (job: Job) => void;
  onRerun: (job: Job) => void;
  onRerunWithChanges: (job: Job) => void;
}

/** What a run was about, in a line: its prompt or text, else its first input URL. */
export function runSummary(job: Job): string {
  const input = job.input;
  for (const key of ['prompt', 'text']) {
    const value = input[key];
    if (typeof value === 'string' && value.trim()) return value;
  }
  for (const key of ['video_url', 'audio_url']) {
    const value = input[key];
    if (typeof value === 'string') return value;
  }
  const files = input.files;
  if (Array.isArray(files) && files.length > 0)
    return `${files.length} input file${files.length === 1 ? '' : 's'}`;
  return 'No prompt';
}

/** A run's summary shortened for a label read aloud. */
function shortSummary(job: Job): string {
  const summary = runSummary(job).replace(/\s+/g, ' ').trim();
  return summary.length > 60 ? `${summary.slice(0, 59)}…` : summary;
}

function Preview({ job }: { job: Job }) {
  const output = job.output?.outputs[0];
  const image = output?.thumbnail_url ?? (output?.media_type.startsWith('image/') ? output.url : null);
  return (
    <span className="grid size-14 shrink-0 place-items-center overflow-hidden rounded-lg bg-zinc-100 text-[10px] font-medium text-zinc-700 uppercase dark:bg-zinc-800 dark:text-zinc-300">
      {image ? (
        <img src={image} alt="" loading="lazy" className="h-full w-full object-cover" />
      ) : output?.data ? (
        'report'
      ) : (
        (output?.media_type.split('/')[0] ?? job.status)
      )}
    </span>
  );
}

/** The tool's newest runs: show one, run it again (as is, or with changes), or compare several. */
export function RecentRuns({
  tool,
  currentJobId,
  rerunning,
  onShow,
  onRerun,
  onRerunWithChanges,
}: RecentRunsProps) {
  const { data, isPending, isError, error, refetch, hasNextPage, fetchNextPage, isFetchingNextPage } =
    useInfiniteQuery(recentRunsQueryOptions(tool));
  const [selected, setSelected] = useState<string[]>([]);
  const [comparing, setComparing] = useState(false);
  const jobs = data?.pages.flatMap((page) => page.data) ?? [];
  const chosen = jobs.filter((job) => selected.includes(job.id));

  function toggle(id: string) {
    void loadCompare();
    setSelected((ids) => (ids.includes(id) ? ids.filter((x) => x !== id) : [...ids, id]));
  }

  return (
    <section aria-labelledby="recent-heading" className="flex flex-col gap-3">
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        <h2 id="recent-heading" className="text-base font-semibold">
          Recent {toolLabel(tool).toLowerCase()} runs
        </h2>
        <div className="flex items-center gap-2">
          {selected.length > 0 && (
            <Button variant="ghost" size="sm" onClick={() => setSelected([])}>
              Clear selection
            </Button>
          )}
          <Button
            variant="secondary"
            size="sm"
            disabled={chosen.length < 2}
            aria-haspopup="dialog"
            onClick={() => setComparing(true)}
          >
            {`Compare${chosen.length ? ` (${chosen.length})` : ''}`}
          </Button>
        </div>
      </div>

      {isPending && <LoadingNote>Loading recent runs…</LoadingNote>}
      {isError && (
        <Alert tone="error" title="Recent runs could not be loaded">
          {error.message}{' '}
          <Button variant="secondary" size="sm" onClick={() => void refetch()}>
            Try again
          </Button>
        </Alert>
      )}
      {data && jobs.length === 0 && (
        <p className="rounded-xl border border-dashed border-zinc-300 px-4 py-6 text-center text-sm text-zinc-600 dark:border-zinc-700 dark:text-zinc-400">
          No {toolLabel(tool).toLowerCase()} runs yet. Your runs appear here, to rerun and compare.
        </p>
      )}
      {jobs.length > 0 && (
        <ul className="divide-y divide-zinc-100 overflow-hidden rounded-xl border border-zinc-200 bg-white dark:divide-zinc-800 dark:border-zinc-800 dark:bg-zinc-900">
          {jobs.map((job) => (
            <li
              key={job.id}
              aria-label={`Run ${job.id}`}
              className={cx(
                'flex flex-wrap items-center gap-3 px-4 py-3',
                job.id === currentJobId && 'bg-zinc-50 dark:bg-zinc-800/40',
              )}
            >
              <input
                type="checkbox"
                aria-label={`Compare the run “${shortSummary(job)}”, ${startedWhen(job.created_at)}`}
                checked={selected.includes(job.id)}
                onChange={() => toggle(job.id)}
                className="size-4 accent-zinc-900 dark:accent-zinc-100"
              />
              <Preview job={job} />
              <div className="min-w-0 flex-1">
                <p className="truncate text-sm">{runSummary(job)}</p>
                <p className="flex flex-wrap items-center gap-x-2 text-xs text-zinc-600 dark:text-zinc-400">
                  <StatusBadge status={job.status} />
                  <span>{job.model}</span>
                  <span>{startedWhen(job.created_at)}</span>
                  <span className="tabular-nums">
                    {formatCredits(job.actual_cost_cents ?? job.estimated_cost_cents)}
                  </span>
                </p>
              </div>
              <div className="flex flex-wrap gap-1">
                <Button
                  variant="ghost"
                  size="sm"
                  onClick={() => onShow(job)}
                  disabled={job.id === currentJobId}
                >
                  {job.id === currentJobId ? 'Shown' : 'Show'}
                </Button>
                <Button variant="ghost" size="sm" pending={rerunning === job.id} onClick={() => onRerun(job)}>
                  Rerun
                </Button>
                <Button variant="ghost" size="sm" onClick={() => onRerunWithChanges(job)}>
                  Rerun with changes
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}

      {hasNextPage && (
        <div>
          <Button
            variant="secondary"
            size="sm"
            pending={isFetchingNextPage}
            onClick={() => void fetchNextPage()}
          >
            Show older runs
          </Button>
        </div>
      )}

      {comparing && chosen.length >= 2 && (
        <Suspense fallback={<LoadingNote>Opening the comparison…</LoadingNote>}>
          <CompareDialog jobs={chosen} onClose={() => setComparing(false)} />
        </Suspense>
      )}
    </section>
  );
}
