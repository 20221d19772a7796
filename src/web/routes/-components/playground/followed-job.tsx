import { useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import type { Job, JobStatusView } from '../../../../contract/jobs.ts';
import { Alert } from '../../../components/alert.tsx';
import { Button } from '../../../components/button.tsx';
import { StatusBadge, statusLabel } from '../../../components/job-status-badge.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { formatCredits } from '../../../format/credits.ts';
import { jobErrorWords } from '../../../format/job-error.ts';
import {
  generationKeys,
  isSettled,
  jobQueryOptions,
  jobStatusQueryOptions,
  useCancelJob,
} from '../../../queries/generation.ts';
import { meKeys } from '../../../queries/me.ts';
import { runProgressText } from '../../../queries/run-times.ts';
import { jobTimes, liveTimesText, type TimedJob } from '../jobs/job-times.ts';
import { JobOutputs } from './job-outputs.tsx';
import { LoadingJob } from './result-panel.tsx';

const ACTIVE_MESSAGES: Record<string, string> = {
  queued: 'Waiting for a worker…',
  submitting: 'Handing the job to the provider…',
  running: 'Working on it…',
};

/** The current time, ticking each second while the job is under way (and still once it settles). */
function useTicking(running: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!running) return;
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, [running]);
  return now;
}

/** Follows one job live: the light status is polled while it runs, the full job read when it settles. */
export function FollowedJob({ id }: { id: string }) {
  const queryClient = useQueryClient();
  const job = useQuery(jobQueryOptions(id));
  const status = useQuery(jobStatusQueryOptions(id));
  const cancel = useCancelJob();
  const settledOnce = useRef(false);

  const view:
    | Pick<JobStatusView, 'status' | 'progress' | 'progress_message' | 'output' | 'error'>
    | undefined = status.data ?? job.data;
  const terminal = view ? isSettled(view.status) : false;

  // It just settled: read the full job again (actual cost), and refresh what depends on it.
  useEffect(() => {
    if (!status.data?.terminal || settledOnce.current) return;
    settledOnce.current = true;
    if (job.data && isSettled(job.data.status)) return;
    void queryClient.invalidateQueries({ queryKey: generationKeys.job(id) });
    void queryClient.invalidateQueries({ queryKey: generationKeys.playground });
    void queryClient.invalidateQueries({ queryKey: meKeys.all });
  }, [status.data?.terminal, job.data, id, queryClient]);

  const now = useTicking(!terminal);
  // The job was read once, usually still queued; the polled status says when a worker took it.
  const timed: TimedJob | null =
    job.data && view && !terminal
      ? {
          created_at: job.data.created_at,
          started_at: status.data?.started_at ?? job.data.started_at,
          completed_at: null,
          updated_at: status.data?.updated_at ?? job.data.updated_at,
          status: view.status,
        }
      : null;
  const times = timed ? liveTimesText(timed, now) : null;
  // The estimate the job was given when created (jobs made before it was kept have none to count down).
  const eta =
    timed && job.data?.estimated_run
      ? runProgressText(job.data.estimated_run, jobTimes(timed, now).runMs)
      : null;

  if (!view) {
    if (job.isError || status.isError) {
      return (
        <Alert tone="error" title="This job could not be loaded">
          {(job.error ?? status.error)?.message}
        </Alert>
      );
    }
    return <LoadingJob />;
  }

  const percent = typeof view.progress === 'number' ? Math.round(view.progress * 100) : null;
  // The engine's "Done" arrives before the job is: its outputs are still being stored and charged, so
  // the line says that rather than "Done" beside a "Running" badge.
  const message =
    !terminal && percent === 100
      ? 'Saving the result…'
      : (view.progress_message ?? ACTIVE_MESSAGES[view.status] ?? null);

  return (
    <div className="flex flex-col gap-4" data-job-id={id} data-status={view.status}>
      <JobHeader job={job.data} status={view.status} times={times} />
      {/* Announced politely: screen readers hear the job move along without being interrupted. */}
      <p aria-live="polite" className="sr-only">
        {`Job ${statusLabel(view.status).toLowerCase()}${!terminal && message ? `: ${message}` : ''}`}
      </p>
      {!terminal && (
        <div className="flex flex-col gap-2">
          <div
            role="progressbar"
            aria-label="Progress"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={percent ?? undefined}
            aria-valuetext={percent === null ? (message ?? statusLabel(view.status)) : `${percent}%`}
            className="h-2 overflow-hidden rounded-full bg-zinc-100 dark:bg-zinc-800"
          >
            <div
              className={
                percent === null
                  ? 'h-full w-1/3 animate-pulse rounded-full bg-zinc-400 dark:bg-zinc-500'
                  : 'h-full rounded-full bg-zinc-900 transition-[width] dark:bg-zinc-100'
              }
              style={percent === null ? undefined : { width: `${percent}%` }}
            />
          </div>
          <div className="flex items-center justify-between gap-3">
            <p className="flex min-w-0 flex-1 items-start gap-2 text-sm text-zinc-700 dark:text-zinc-300">
              <Spinner className="mt-0.5 shrink-0" />
              <span>
                {message}
                {percent !== null && <span className="whitespace-nowrap tabular-nums"> · {percent}%</span>}
              </span>
            </p>
            <Button variant="ghost" size="sm" pending={cancel.isPending} onClick={() => cancel.mutate(id)}>
              Cancel
            </Button>
          </div>
          {eta && (
            <p className="text-xs text-zinc-600 tabular-nums dark:text-zinc-400" data-testid="run-eta">
              {eta}
            </p>
          )}
          {cancel.isError && <Alert tone="error">Could not cancel: {cancel.error.message}</Alert>}
        </div>
      )}
      {view.status === 'completed' && view.output && <JobOutputs output={view.output} />}
      {view.status === 'completed' && job.data && <SaveAsPreset job={job.data} />}
      {view.status === 'failed' && <FailedJob error={view.error} />}
      {view.status === 'cancelled' && (
        <Alert title="The job was cancelled">Nothing was charged for it.</Alert>
      )}
    </div>
  );
}

/** Why the job failed, in the words the drawer and the feed use; the code small, to quote. */
function FailedJob({ error }: { error: JobStatusView['error'] }) {
  if (!error)
    return (
      <Alert tone="error" title="The job failed">
        No reason was given.
      </Alert>
    );
  const words = jobErrorWords(error);
  return (
    <Alert tone="error" title={words.title}>
      {words.detail}
      <span className="mt-1 block text-xs">Code {error.code}</span>
    </Alert>
  );
}

function costText(job: Job): string {
  if (job.actual_cost_cents !== null) {
    return job.pricing.cached
      ? 'Free (served from the result cache)'
      : `Charged ${formatCredits(job.actual_cost_cents)}`;
  }
  return `Estimated ${formatCredits(job.estimated_cost_cents)}`;
}

function JobHeader({
  job,
  status,
  times,
}: {
  job: Job | undefined;
  status: Job['status'];
  times: string | null;
}) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-2">
      <div className="min-w-0">
        <p className="truncate text-sm font-medium">{job ? job.model : 'Job'}</p>
        {job && (
          <p className="text-xs text-zinc-600 dark:text-zinc-400">
            on {job.provider} · {costText(job)}
            {times !== null && <span className="tabular-nums"> · {times}</span>}
          </p>
        )}
      </div>
      <StatusBadge status={status} />
    </div>
  );
}

// Opened on demand: its form checks (zod) are not part of the playground's first load.
const SavePresetDialog = lazy(() =>
  import('../presets/save-preset-dialog.tsx').then((m) => ({ default: m.SavePresetDialog })),
);

/** The run's input, kept as a private preset of the team (its output as the sample). */
function SaveAsPreset({ job }: { job: Job }) {
  const [open, setOpen] = useState(false);
  return (
    <div>
      <Button variant="secondary" size="sm" onClick={() => setOpen(true)}>
        Save as preset
      </Button>
      {open && (
        <Suspense fallback={<Spinner />}>
          <SavePresetDialog job={job} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </div>
  );
}
