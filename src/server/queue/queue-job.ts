import type { z } from 'zod';
import type { Config } from '../config.ts';
import type { Services } from '../services.ts';

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

export interface QueueJobDefinition<Data = unknown> {
  name: string;
  /** The message's data, parsed before the handler sees it; a message that does not parse is logged and dropped. */
  schema: z.ZodType<Data>;
  /** Cron schedule for recurring work (pg-boss keeps one schedule per name across processes). */
  cron?: string;
  /** pg-boss queue options: retries, expiry (after which a message whose worker went quiet is handed out again). */
  options?: QueueOptions | ((config: Config) => QueueOptions);
  /** Workers of this queue in each process (each takes one message at a time); default 1. */
  workers?: number;
  /** How often an idle worker looks for new messages; default pg-boss's 2 s. */
  pollingIntervalSeconds?: number;
  handler: (services: Services, data: Data) => Promise<void>;
}

/** A queue job as the queue runs it: its settings, and a handler of raw message data. */
export interface QueueJob extends Omit<QueueJobDefinition, 'schema' | 'handler'> {
  /** Parses the message's data with the job's schema, then runs its handler; bad data is logged, not retried. */
  handle(services: Services, data: unknown): Promise<void>;
}

/** Declares a queue job: its handler sees data its schema parsed (documenso's job definitions do the same). */
export function queueJob<Data>({ schema, handler, ...settings }: QueueJobDefinition<Data>): QueueJob {
  return {
    ...settings,
    async handle(services, data) {
      const parsed = schema.safeParse(data);
      if (!parsed.success) {
        services.log.warn('queue message with bad data dropped', { queue: settings.name, data });
        return;
      }
      await handler(services, parsed.data);
    },
  };
}
