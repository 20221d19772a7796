import type { ToolKey } from '../../../contract/common.ts';

/**
 * The pg-boss queues that run jobs (one message per run; a crashed run is requeued, see job-lease.ts). Jobs
 * are split by what they wait on, so one kind cannot starve another: local engines use the CPU (few
 * workers), external providers mostly wait on the network (many workers), and a pipeline waits on its
 * steps, which run in the other queues (so pipelines can never hold every worker their steps need).
 */
export const RUN_JOB_QUEUE = 'job-run';
export const RUN_REMOTE_JOB_QUEUE = 'job-run-remote';
export const RUN_PIPELINE_QUEUE = 'job-run-pipeline';

export function runQueueFor(tool: ToolKey, provider: string): string {
  if (tool === 'pipeline') return RUN_PIPELINE_QUEUE;
  return provider === 'local' ? RUN_JOB_QUEUE : RUN_REMOTE_JOB_QUEUE;
}

/**
 * The notification channel on which a process that received a provider's webhook names the job, for the
 * process that follows it (remote-follower.ts) to poll it at once.
 */
export const REMOTE_JOB_CHANNEL = 'remote_job_event';
