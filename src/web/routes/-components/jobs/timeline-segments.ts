import type { Job, JobTimeline } from '../../../../contract/jobs.ts';
import { isTerminalJobStatus } from '../../../../contract/values.ts';

export type PhaseKey =
  | 'queued'
  | 'submitting'
  | 'provider_queue'
  | 'provider_run'
  | 'downloading'
  | 'running';

export interface TimelineSegment {
  phase: PhaseKey;
  label: string;
  ms: number;
  /** The phase the job is in now: its duration grows with the clock. */
  ongoing: boolean;
}

type Stamp = keyof JobTimeline;

/** Each moment starts a phase that lasts until the next moment the job reached. */
const REMOTE: readonly (readonly [Stamp, PhaseKey, string])[] = [
  ['created_at', 'queued', 'Queued here'],
  ['started_at', 'submitting', 'Submitting'],
  ['submitted_at', 'provider_queue', 'Queued at the provider'],
  ['provider_started_at', 'provider_run', 'Running at the provider'],
  ['provider_finished_at', 'downloading', 'Downloading the result'],
];

/** A local engine's job has no provider moments: it waits here, then runs. */
const LOCAL: readonly (readonly [Stamp, PhaseKey, string])[] = [
  ['created_at', 'queued', 'Queued'],
  ['started_at', 'running', 'Running'],
];

/** A job handed to an external provider: it carries the provider's moments, or is being handed over. */
export function isRemoteJob(job: Job): boolean {
  const t = job.timeline;
  return (
    job.status === 'submitting' ||
    t.submitted_at !== null ||
    t.provider_started_at !== null ||
    t.provider_finished_at !== null
  );
}

/**
 * Where a job's time went, phase by phase, up to `now` for a job under way. A moment the job skipped
 * (a provider seen done without being seen running) leaves its phase out; a job that ended without
 * `completed_at` (cancelled while queued) ends at its last change.
 */
export function timelineSegments(job: Job, now: number): TimelineSegment[] {
  const active = !isTerminalJobStatus(job.status);
  const phases = isRemoteJob(job) ? REMOTE : LOCAL;
  const reached = phases.filter(([stamp]) => job.timeline[stamp] !== null);
  const end = active ? now : Date.parse(job.timeline.completed_at ?? job.updated_at);
  return reached.map(([stamp, phase, label], i) => {
    const next = reached[i + 1];
    const from = Date.parse(job.timeline[stamp] as string);
    const to = next ? Date.parse(job.timeline[next[0]] as string) : end;
    return { phase, label, ms: Math.max(0, to - from), ongoing: active && !next };
  });
}
