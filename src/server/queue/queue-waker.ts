import type { Db } from '../db/pool.ts';
import type { Logger } from '../logger.ts';
import type { LaneWorkers } from './lane-workers.ts';

/** Where a process tells the others that work waits in a queue (the payload is the queue's name). */
export const QUEUE_WORK_CHANNEL = 'queue_work';

/**
 * Wakes a worker for work this process just sent (`Services.wakeQueue`). Made with the services, so that
 * every part can call it from the start; the queue's start gives it this process's lanes. Work wakes an
 * idle worker here; with none idle, or none here (an api process), the other processes on a shared
 * database are told on QUEUE_WORK_CHANNEL. Before the queue starts, and on the embedded database (one
 * process), there is no one else to tell.
 */
export class QueueWaker {
  private lanes: ReadonlyMap<string, LaneWorkers> = new Map();
  private shared = false;

  constructor(
    private readonly db: Db,
    private readonly log: Logger,
  ) {}

  /** The lanes this process runs, and whether other processes share its database. */
  attach(lanes: ReadonlyMap<string, LaneWorkers>, shared: boolean): void {
    this.lanes = lanes;
    this.shared = shared;
  }

  wake(queueName: string): void {
    if (this.lanes.get(queueName)?.wake() || !this.shared) return;
    this.db.query('SELECT pg_notify($1, $2)', [QUEUE_WORK_CHANNEL, queueName]).catch((error) => {
      this.log.warn('could not announce new work to other processes', {
        queue: queueName,
        error: String(error),
      });
    });
  }

  /** A notification from another process: an idle worker of that lane here looks. */
  woken(queueName: string): void {
    this.lanes.get(queueName)?.wake();
  }
}
