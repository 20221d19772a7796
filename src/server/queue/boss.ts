import PgBoss from 'pg-boss';
import type { Services } from '../services.ts';
import { QUEUE_JOBS } from './jobs.ts';

export function createBoss(databaseUrl: string, maintenanceIntervalSeconds: number): PgBoss {
  // Maintenance also notices runs whose lease expired (a killed worker) and hands them out again.
  return new PgBoss({ connectionString: databaseUrl, schema: 'pgboss', max: 10, maintenanceIntervalSeconds });
}

export interface Queue {
  stop(): Promise<void>;
}

/** Starts pg-boss (services.boss) and its queues; with `work`, this process also runs the workers. */
export async function startQueue(services: Services, role: { work: boolean }): Promise<Queue> {
  const { boss, log } = services;
  let stopping = false;
  // While stopping, its connections closing under it are expected, not errors.
  boss.on('error', (error) => {
    if (!stopping) log.error('queue error', { error: String(error) });
  });
  await boss.start();
  const workerIds = new Map<string, string[]>();
  for (const job of QUEUE_JOBS) {
    const options = typeof job.options === 'function' ? job.options(services.config) : job.options;
    await boss.createQueue(job.name, { name: job.name, ...options });
    // An existing queue keeps its old options unless updated (a changed JOB_LEASE_SECONDS, say).
    if (options) await boss.updateQueue(job.name, { name: job.name, ...options });
    if (job.cron) await boss.schedule(job.name, job.cron);
    if (role.work) {
      const ids: string[] = [];
      for (let i = 0; i < (job.workers ?? 1); i++) {
        const workOptions = job.pollingIntervalSeconds
          ? { pollingIntervalSeconds: job.pollingIntervalSeconds }
          : {};
        ids.push(
          await boss.work(job.name, workOptions, async (batch) => {
            for (const item of batch) await job.handler(services, item.data);
          }),
        );
      }
      workerIds.set(job.name, ids);
    }
  }
  // Work sent from this process wakes one of its idle workers instead of waiting for the next poll.
  services.wakeQueue = (name) => {
    const ids = workerIds.get(name);
    if (ids?.length) boss.notifyWorker(ids[Math.floor(Math.random() * ids.length)]!);
  };
  return {
    stop: () => {
      stopping = true;
      return boss.stop({ graceful: true, timeout: 10_000, wait: true });
    },
  };
}
