import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError } from '../../../../client/api-error.ts';
import type { Job } from '../../../../contract/jobs.ts';
import { isTerminalJobStatus } from '../../../../contract/values.ts';
import { showToast } from '../../../components/toast-store.ts';
import { pluralize } from '../../../format/words.ts';
import { applyJobResults, type JobAction, jobKeys, runJobAction } from '../../../queries/jobs.ts';
import { wakeJobFeed } from '../../../queries/jobs-live.ts';
import { runLimited } from './run-limited.ts';

/** Requests in flight at once for a bulk action: quick for a few dozen jobs, gentle on the server. */
const BULK_CONCURRENCY = 4;

/** Which jobs an action applies to: cancel what is under way, retry what failed or was cancelled. */
export function canRun(action: JobAction, job: Job): boolean {
  if (action === 'cancel') return !isTerminalJobStatus(job.status);
  if (action === 'retry') return job.status === 'failed' || job.status === 'cancelled';
  return true;
}

/** "the job" for one, "3 jobs" for more (plural rules from the words module). */
const jobs = (n: number) => (n === 1 ? 'the job' : pluralize(n, 'job', 'jobs'));

const DONE: Record<JobAction, (n: number) => string> = {
  cancel: (n) => `Cancelled ${jobs(n)}`,
  retry: (n) =>
    n === 1 ? 'Retried the job: a new job is queued' : `Retried ${jobs(n)}: new jobs are queued`,
  refresh: (n) => `Refreshed ${jobs(n)} from the provider`,
};

/**
 * A cancel the server refused because the job finished between the list the person saw and the request
 * (409 with the job's terminal status). Their wish already holds: it is counted, not reported as a failure.
 */
function finishedMeanwhile(action: JobAction, error: unknown): boolean {
  if (action !== 'cancel' || !(error instanceof ApiError) || error.status !== 409) return false;
  const status = (error.details as { status?: unknown } | undefined)?.status;
  return typeof status === 'string' && isTerminalJobStatus(status as Job['status']);
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Runs an action on jobs (one, or a selection) as one call per job, a few at a time (there are no bulk
 * endpoints), puts the answers into the cache, wakes the live feed and says how it went.
 */
export function useJobActions() {
  const queryClient = useQueryClient();
  const [pending, setPending] = useState<JobAction | null>(null);

  async function run(action: JobAction, jobs: readonly Job[]): Promise<Job[]> {
    const eligible = jobs.filter((job) => canRun(action, job));
    if (eligible.length === 0) return [];
    setPending(action);
    try {
      const results = await runLimited(eligible, BULK_CONCURRENCY, (job) => runJobAction(action, job.id));
      const done = results.flatMap((r) => (r.ok ? [r.value] : []));
      const refused = results.flatMap((r) => (r.ok ? [] : [r]));
      const finished = refused.filter((r) => finishedMeanwhile(action, r.error));
      const failed = refused.filter((r) => !finishedMeanwhile(action, r.error));
      applyJobResults(queryClient, done);
      // The feed refetches on wake; the details of jobs that finished meanwhile are stale too.
      for (const r of finished) void queryClient.invalidateQueries({ queryKey: jobKeys.detail(r.item.id) });
      wakeJobFeed();
      if (failed.length === 0) {
        const title =
          done.length === 0
            ? `${finished.length === 1 ? 'The job has' : `${pluralize(finished.length, 'job', 'jobs')} have`} already finished`
            : finished.length > 0
              ? `${DONE[action](done.length)}; ${finished.length} had already finished`
              : DONE[action](done.length);
        showToast({ tone: 'success', title });
      } else {
        const first = failed[0]!;
        showToast({
          tone: 'error',
          title:
            done.length > 0
              ? `${DONE[action](done.length)}; ${failed.length} could not be`
              : `${failed.length === 1 ? 'The job' : `${failed.length} jobs`} could not be ${action === 'retry' ? 'retried' : action === 'cancel' ? 'cancelled' : 'refreshed'}`,
          description: `${first.item.id}: ${message(first.error)}`,
        });
      }
      return done;
    } finally {
      setPending(null);
    }
  }

  return { run, pending };
}
