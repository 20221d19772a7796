import type PgBoss from 'pg-boss';

/** What a worker does with one message's data. */
export type HandleMessage = (data: unknown) => Promise<void>;

/**
 * The workers of one queue in this process. pg-boss's worker loop fetches, runs the batch, then sleeps
 * out the rest of its polling interval unless notified: a backlog drained at workers ÷ interval messages
 * per second however short the jobs (4 workers at 0.5 s: at most 8 jobs/s). Here a worker that ran a
 * message notifies itself, so it fetches again at once while the queue has work; only a fetch that comes
 * back empty (pg-boss calls the handler only with messages) lets it sleep, so idle workers do not spin.
 *
 * A lane polls as one: at the lane's interval it wakes one idle worker (in turn) to fetch, and the
 * workers' own polling is rare (RESERVE_POLL_SECONDS), a fallback. Every worker polling at 0.5 s made an
 * idle server fetch about 50 times a second (24 workers across the job lanes): a quarter of a core in
 * node alone. The poll goes to whichever worker is idle, so work that arrives unannounced (a retry come
 * due, work sent by another process) is found within the interval even while some workers are busy; a
 * fixed lookout worker, busy with a long job, left it to the 30 s fallback. New work from this process
 * wakes an idle worker at once, in turn (two quick wakes reach two workers); a worker whose fetch found
 * work wakes another idle one, so a backlog soon has every worker on it. When all are busy none needs
 * waking: each fetches again when its job ends.
 */
export const RESERVE_POLL_SECONDS = 30;

export class LaneWorkers {
  /** Idle workers, the one to wake next first. */
  private readonly idle = new Set<string>();
  private poll: NodeJS.Timeout | undefined;

  private constructor(private readonly boss: PgBoss) {}

  static async start(
    boss: PgBoss,
    name: string,
    options: {
      workers: number;
      /** How often the lane has an idle worker look for work; default pg-boss's 2 s. */
      pollingIntervalSeconds?: number | undefined;
      reservePollingIntervalSeconds?: number;
    },
    handle: HandleMessage,
  ): Promise<LaneWorkers> {
    const lane = new LaneWorkers(boss);
    const interval = options.pollingIntervalSeconds ?? 2;
    const reserve = Math.max(interval, options.reservePollingIntervalSeconds ?? RESERVE_POLL_SECONDS);
    for (let i = 0; i < options.workers; i++) {
      // Known before its first fetch can answer: pg-boss registers the worker without waiting on the database.
      let id = '';
      id = await boss.work(name, { pollingIntervalSeconds: reserve }, async (batch) => {
        lane.idle.delete(id);
        // There may be more where this came from: another idle worker looks too.
        lane.wake();
        try {
          for (const item of batch) await handle(item.data);
        } finally {
          lane.idle.add(id);
          // Skips the sleep after this batch: the worker fetches again at once, and sleeps only when empty.
          boss.notifyWorker(id);
        }
      });
      lane.idle.add(id);
    }
    lane.poll = setInterval(() => lane.wake(), interval * 1000);
    // The queue's stop ends it; until then it must not be what keeps a process alive.
    lane.poll.unref();
    return lane;
  }

  /** Ends the lane's polling (its workers stop with pg-boss's offWork or stop). */
  stop(): void {
    clearInterval(this.poll);
  }

  /** Wakes one idle worker to fetch now; false when all are busy (each fetches again when done). */
  wake(): boolean {
    const next = this.idle.values().next();
    if (next.done) return false;
    // To the back of the line: the next wake goes to another idle worker.
    this.idle.delete(next.value);
    this.idle.add(next.value);
    this.boss.notifyWorker(next.value);
    return true;
  }
}
