import PgBoss from 'pg-boss';
import type { Services } from '../services.ts';
import { QUEUE_JOBS } from './jobs.ts';

export function createBoss(databaseUrl: string): PgBoss {
  return new PgBoss({ connectionString: databaseUrl, schema: 'pgboss', max: 4 });
}

export interface Queue {
  stop(): Promise<void>;
}

/** Starts pg-boss (services.boss) and its queues; with `work`, this process also runs the workers. */
export async function startQueue(services: Services, options: { work: boolean }): Promise<Queue> {
  const { boss, log } = services;
  let stopping = false;
  // While stopping, its connections closing under it are expected, not errors.
  boss.on('error', (error) => {
    if (!stopping) log.error('queue error', { error: String(error) });
  });
  await boss.start();
  for (const job of QUEUE_JOBS) {
    await boss.createQueue(job.name, { name: job.name, ...job.options });
    if (job.cron) await boss.schedule(job.name, job.cron);
    if (options.work) {
      await boss.work(job.name, async (batch) => {
        for (const item of batch) await job.handler(services, item.data);
      });
    }
  }
  return {
    stop: () => {
      stopping = true;
      return boss.stop({ graceful: true, timeout: 10_000, wait: true });
    },
  };
}
