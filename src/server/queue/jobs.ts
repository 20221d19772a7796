import { z } from 'zod';
import { sweepCodes } from '../domain/identity/otp.ts';
import { enqueueMissedWebhooks } from '../domain/jobs/job-webhook.ts';
import { RUN_JOB_QUEUE, RUN_PIPELINE_QUEUE, RUN_REMOTE_JOB_QUEUE } from '../domain/jobs/queue-names.ts';
import { runJob } from '../domain/jobs/run-job.ts';
import { sweepRateLimits } from '../domain/rate-limit.ts';
import { runJobDeps } from '../run-job-deps.ts';
import { type QueueJob, queueJob } from './queue-job.ts';
import { webhookDelivery } from './webhook-delivery.ts';

const NoData = z.unknown();
const JobMessage = z.object({ jobId: z.string().regex(/^job_/) });

export const maintenanceSweep = queueJob({
  name: 'maintenance-sweep',
  schema: NoData,
  cron: '*/15 * * * *',
  handler: async (services) => {
    const { db, log } = services;
    const codes = await sweepCodes(db);
    const windows = await sweepRateLimits(db);
    const sessions = await db.query(`DELETE FROM sessions WHERE expires_at < now() - interval '30 days'`);
    const webhooks = await enqueueMissedWebhooks(services);
    log.info('maintenance sweep', {
      codes,
      windows,
      sessions: sessions.rowCount ?? 0,
      webhooks: webhooks.length,
    });
  },
});

/**
 * Runs one job. The job's own lease (job-lease.ts: renewed while its run goes on, fenced by a token)
 * decides who runs it; a crashed process's jobs are requeued within seconds (resume-orphans.ts). The
 * message's expiry (expireInSeconds) only hands a message out again, and a repeated message of a job
 * whose run is alive changes nothing. New jobs also wake a worker at once (createJob -> wakeQueue).
 * See queue-names.ts for the three lanes.
 */
function runJobLane(name: string, workers: number, minLeaseSeconds = 0) {
  return queueJob({
    name,
    schema: JobMessage,
    options: (config) => ({
      retryLimit: 3,
      retryDelay: 1,
      expireInSeconds: Math.max(config.JOB_LEASE_SECONDS, minLeaseSeconds),
    }),
    workers,
    pollingIntervalSeconds: 0.5,
    handler: async (services, { jobId }) => {
      await runJob(services, runJobDeps(services), jobId);
    },
  });
}

/** Local engines: CPU-bound, a few at a time. */
export const runJobQueueJob = runJobLane(RUN_JOB_QUEUE, 4);
/**
 * External providers: a worker only submits (uploading the inputs the provider cannot fetch) and hands
 * the job to this process's follower (remote-follower.ts), so a message lasts seconds, not the
 * provider's minutes: 16 workers submit 16 at once however many jobs are in flight.
 */
export const runRemoteJobQueueJob = runJobLane(RUN_REMOTE_JOB_QUEUE, 16);
/** Pipelines: each waits on its steps (up to 10, each possibly remote), which run in the lanes above. */
export const runPipelineQueueJob = runJobLane(RUN_PIPELINE_QUEUE, 4, 6 * 3600);

export const QUEUE_JOBS: QueueJob[] = [
  maintenanceSweep,
  webhookDelivery,
  runJobQueueJob,
  runRemoteJobQueueJob,
  runPipelineQueueJob,
];
