import { sweepCodes } from '../domain/identity/otp.ts';
import { sweepRateLimits } from '../domain/rate-limit.ts';
import type { Services } from '../services.ts';

/**
 * One kind of queued work: a name, an optional cron schedule, and what a worker does with one job's
 * data. Every kind is listed in QUEUE_JOBS; add new kinds there.
 */
export interface QueueJobDefinition {
  name: string;
  /** Cron schedule for recurring work (pg-boss keeps one schedule per name across processes). */
  cron?: string;
  /** pg-boss queue options: retries, expiry (the lease after which a crashed worker's job runs again). */
  options?: { retryLimit?: number; retryDelay?: number; retryBackoff?: boolean; expireInSeconds?: number };
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

export const QUEUE_JOBS: QueueJobDefinition[] = [maintenanceSweep];
