import type { Job } from '../../../../contract/jobs.ts';
import { isTerminalJobStatus } from '../../../../contract/values.ts';
import { formatDuration } from '../../../format/duration.ts';

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
function endOf(job: TimedJob): string | null {
  return job.completed_at ?? (isTerminalJobStatus(job.status) ? job.updated_at : null);
}

/** What the times are read from: a whole job, or the playground's job with its polled status merged in. */
export type TimedJob = Pick<Job, 'created_at' | 'started_at' | 'completed_at' | 'updated_at' | 'status'>;

const between = (from: string, to: number) => Math.max(0, to - Date.parse(from));

export function jobTimes(job: TimedJob, now: number): JobTimes {
  const end = endOf(job);
  const until = end ? Date.parse(end) : now;
  if (!job.started_at) return { queuedMs: between(job.created_at, until), runMs: null };
  const started = Date.parse(job.started_at);
  return {
    queuedMs: between(job.created_at, started),
    runMs: between(job.started_at, Math.max(until, started)),
  };
}

/** Whole seconds while under a minute: a timer that ticks each second reads "12 s", not "12.4 s". */
function liveDuration(ms: number): string {
  return ms < 60_000 ? `${Math.floor(ms / 1000)} s` : formatDuration(ms);
}

/**
 * A job under way, told as its two parts: "Queued 3 s" while it waits, "Queued 3 s · Running 12 s" once a
 * worker took it, so time in the queue is never read as time the model spent.
 */
export function liveTimesText(job: TimedJob, now: number): string {
  const { queuedMs, runMs } = jobTimes(job, now);
  const queued = `Queued ${liveDuration(queuedMs)}`;
  return runMs === null ? queued : `${queued} · Running ${liveDuration(runMs)}`;
}
