import type { Config } from '../config.ts';
import { sweepCodes } from '../domain/identity/otp.ts';
import { enqueueMissedWebhooks } from '../domain/jobs/job-webhook.ts';
import { RUN_JOB_QUEUE, RUN_PIPELINE_QUEUE, RUN_REMOTE_JOB_QUEUE } from '../domain/jobs/queue-names.ts';
import { runJob } from '../domain/jobs/run-job.ts';
import { runJobDeps } from '../domain/jobs/run-job-deps.ts';
import { sweepRateLimits } from '../domain/rate-limit.ts';
import type { Services } from '../services.ts';
import { webhookDelivery } from './webhook-delivery.ts';

/**
 * One kind of queued work: a name, an optional cron schedule, and what a worker does with one job's
 * data. Every kind is listed in QUEUE_JOBS; add new kinds there.
 */
export interface QueueOptions {
  retryLimit?: number;
  retryDelay?: number;
  retryBackoff?: boolean;
  expireInSeconds?: number;
}

export interface QueueJobDefinition {
  name: string;
  /** Cron schedule for recurring work (pg-boss keeps one schedule per name across processes). */
  cron?: string;
  /** pg-boss queue options: retries, expiry (after which a message whose worker went quiet is handed out again). */
  options?: QueueOptions | ((config: Config) => QueueOptions);
  /** Workers of this queue in each process (each takes one message at a time); default 1. */
  workers?: number;
  /** How often an idle worker looks for new messages; default pg-boss's 2 s. */
  pollingIntervalSeconds?: number;
  handler: (services: Services, data: unknown) => Promise<void>;
}

export const maintenanceSweep: QueueJobDefinition = {
  name: 'maintenance-sweep',
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
};

/**
 * Runs one job. The job's own lease (job-lease.ts: renewed while its run goes on, fenced by a token)
 * decides who runs it; a crashed process's jobs are requeued within seconds (resume-orphans.ts). The
 * message's expiry (expireInSeconds) only hands a message out again, and a repeated message of a job
 * whose run is alive changes nothing. New jobs also wake a worker at once (createJob -> wakeQueue).
 * See queue-names.ts for the three lanes.
 */
function runJobLane(name: string, workers: number, minLeaseSeconds = 0): QueueJobDefinition {
  return {
    name,
    options: (config) => ({
      retryLimit: 3,
      retryDelay: 1,
      expireInSeconds: Math.max(config.JOB_LEASE_SECONDS, minLeaseSeconds),
    }),
    workers,
    pollingIntervalSeconds: 0.5,
    handler: async (services, data) => {
      const { jobId } = data as { jobId: string };
      await runJob(services, runJobDeps(services), jobId);
    },
  };
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

export const QUEUE_JOBS: QueueJobDefinition[] = [
  maintenanceSweep,
  webhookDelivery,
  runJobQueueJob,
  runRemoteJobQueueJob,
  runPipelineQueueJob,
];
