import PgBoss from 'pg-boss';
import type { Db } from '../db/pool.ts';
import { sweepCodes } from '../domain/identity/otp.ts';
import { sweepRateLimits } from '../domain/rate-limit.ts';
import type { Logger } from '../logger.ts';

/** A queue job: a name, and what a worker does with it. New kinds of work are added to `JOBS`. */
interface JobDefinition {
  name: string;
  /** Cron schedule for recurring work (pg-boss keeps one schedule per name across processes). */
  cron?: string;
  handler: (deps: { db: Db; log: Logger }) => Promise<void>;
}

const JOBS: JobDefinition[] = [
  {
    name: 'maintenance-sweep',
    cron: '*/15 * * * *',
    handler: async ({ db, log }) => {
      const codes = await sweepCodes(db);
      const windows = await sweepRateLimits(db);
      const sessions = await db.query(`DELETE FROM sessions WHERE expires_at < now() - interval '30 days'`);
      log.info('maintenance sweep', { codes, windows, sessions: sessions.rowCount ?? 0 });
    },
  },
];

export interface Queue {
  boss: PgBoss;
  stop(): Promise<void>;
}

/** Starts pg-boss on our database; with `work`, this process also runs the workers. */
export async function startQueue(
  url: string,
  db: Db,
  log: Logger,
  options: { work: boolean },
): Promise<Queue> {
  const boss = new PgBoss({ connectionString: url, schema: 'pgboss', max: 4 });
  let stopping = false;
  // While stopping, its connections closing under it are expected, not errors.
  boss.on('error', (error) => {
    if (!stopping) log.error('queue error', { error: String(error) });
  });
  await boss.start();
  for (const job of JOBS) {
    await boss.createQueue(job.name);
    if (job.cron) await boss.schedule(job.name, job.cron);
    if (options.work) {
      await boss.work(job.name, async () => {
        await job.handler({ db, log });
      });
    }
  }
  return {
    boss,
    stop: () => {
      stopping = true;
      return boss.stop({ graceful: true, timeout: 10_000, wait: true });
    },
  };
}
