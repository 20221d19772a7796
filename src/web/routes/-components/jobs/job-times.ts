import type { Job } from '../../../../contract/jobs.ts';
import { isTerminalJobStatus } from '../../../../contract/values.ts';

/**
 * Where a job's time went, in two parts people read apart: waiting for a worker (queue) and running.
 * A job cancelled while queued never ran; the time it waited is not a run of that length.
 */
export interface JobTimes {
  /** From creation to the start of its run, or to its end (or now) when it has not started. */
  queuedMs: number;
  /** From the start of its run to its end, or to now while it runs; null when it never started. */
  runMs: number | null;
}

/** The end of a finished job: its completion, else (failed or cancelled without one) its last change. */
function endOf(job: Job): string | null {
  return job.completed_at ?? (isTerminalJobStatus(job.status) ? job.updated_at : null);
}

const between = (from: string, to: number) => Math.max(0, to - Date.parse(from));

export function jobTimes(job: Job, now: number): JobTimes {
  const end = endOf(job);
  const until = end ? Date.parse(end) : now;
  if (!job.started_at) return { queuedMs: between(job.created_at, until), runMs: null };
  const started = Date.parse(job.started_at);
  return {
    queuedMs: between(job.created_at, started),
    runMs: between(job.started_at, Math.max(until, started)),
  };
}
