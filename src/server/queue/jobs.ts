import type { Config } from '../config.ts';
import { sweepCodes } from '../domain/identity/otp.ts';
import { RUN_JOB_QUEUE } from '../domain/jobs/queue-names.ts';
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
  /** pg-boss queue options: retries, expiry (the lease after which a crashed worker's job runs again). */
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
  handler: async ({ db, log }) => {
    const codes = await sweepCodes(db);
    const windows = await sweepRateLimits(db);
    const sessions = await db.query(`DELETE FROM sessions WHERE expires_at < now() - interval '30 days'`);
    log.info('maintenance sweep', { codes, windows, sessions: sessions.rowCount ?? 0 });
  },
};

/**
 * Runs one job. The lease (expireInSeconds) is how long a run may take before the queue assumes its
 * worker died and hands the job out again; runJob then resumes it, and the terminal move happens once.
 */
export const runJobQueueJob: QueueJobDefinition = {
  name: RUN_JOB_QUEUE,
  options: (config) => ({ retryLimit: 3, retryDelay: 1, expireInSeconds: config.JOB_LEASE_SECONDS }),
  // Several jobs at once per process; new jobs also wake a worker at once (createJob -> wakeQueue).
  workers: 4,
  pollingIntervalSeconds: 0.5,
  handler: async (services, data) => {
    const { jobId } = data as { jobId: string };
    await runJob(services, runJobDeps(services), jobId);
  },
};

export const QUEUE_JOBS: QueueJobDefinition[] = [maintenanceSweep, webhookDelivery, runJobQueueJob];
