import PgBoss from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createPool, type Db } from '../db/pool.ts';
import { createTestDatabase } from '../testing/test-app.ts';
import { sleep, until } from '../testing/until.ts';
import { LaneWorkers } from './lane-workers.ts';

/*
 * The real pg-boss worker loop on a real database, with a polling interval (30 s) far longer than the
 * tests may take: a worker that waited out its interval between messages could not pass them. Fetches
 * are counted on the way to the database (pg-boss's fetch is its only `FOR UPDATE SKIP LOCKED`).
 */
const INTERVAL_SECONDS = 30;
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let pool: Db;
let boss: PgBoss;
const fetches = new Map<string, number>();

beforeAll(async () => {
  database = await createTestDatabase();
  // createPool: the database dropped at the end ends its connections, which must not throw.
  pool = createPool(database.url, 5);
  boss = new PgBoss({
    schema: 'pgboss',
    supervise: false,
    schedule: false,
    db: {
      executeSql: (text: string, values?: unknown[]) => {
        const queue = values?.[0];
        if (text.includes('FOR UPDATE SKIP LOCKED') && typeof queue === 'string') {
          fetches.set(queue, (fetches.get(queue) ?? 0) + 1);
        }
        return pool.query(text, values);
      },
    },
  });
  await boss.start();
});

afterAll(async () => {
  await boss?.stop({ graceful: false, wait: true });
  await pool?.end();
  await database?.drop();
});

describe('a lane of workers', () => {
  it('drains a backlog without waiting out the polling interval, then sleeps instead of polling', async () => {
    const queue = 'lane-backlog';
    await boss.createQueue(queue);
    const messages = 12;
    for (let i = 0; i < messages; i++) await boss.send(queue, { i });
    const handled: number[] = [];
    const workers = 2;
    await LaneWorkers.start(
      boss,
      queue,
      { workers, pollingIntervalSeconds: INTERVAL_SECONDS },
      async (data) => {
        handled.push((data as { i: number }).i);
      },
    );

    // Waiting out the interval, two workers would take two messages, then nothing for 30 s.
    await until(() => handled.length === messages);
    expect([...handled].sort((a, b) => a - b)).toEqual([...Array(messages).keys()]);
    // One fetch per message and a few empty ones (a worker that found work wakes the other, which may
    // find none), then the lane sleeps: no fetch for a second.
    await sleep(500);
    const settled = fetches.get(queue) ?? 0;
    expect(settled).toBeLessThanOrEqual(2 * messages + workers);
    await sleep(1000);
    expect(fetches.get(queue)).toBe(settled);
  }, 20_000);

  it('polls once per interval for the lane, and finds unannounced work while some workers are busy', async () => {
    const queue = 'lane-poll';
    await boss.createQueue(queue);
    const workers = 3;
    const started: number[] = [];
    let release = () => {};
    const allStarted = new Promise<void>((resolve) => {
      release = resolve;
    });
    // The lane's interval runs on a clock the test moves (pg-boss's own timers stay real): each tick is
    // one interval, however loaded the machine.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      await LaneWorkers.start(
        boss,
        queue,
        // The lane polls every 0.5 s through an idle worker; each worker's own poll is every 30 s.
        { workers, pollingIntervalSeconds: 0.5 },
        async (data) => {
          started.push((data as { i: number }).i);
          if (started.length === workers) release();
          // Each holds its worker until all run: a lane that polled through a busy worker would leave
          // the rest to the 30 s fallback.
          await allStarted;
        },
      );
      // The workers' first (empty) fetches; then one fetch per interval of the lane, where every worker
      // polling at the lane's interval would make three.
      await until(() => fetches.get(queue) === workers);
      for (let tick = 1; tick <= 4; tick++) {
        vi.advanceTimersByTime(500);
        await until(() => (fetches.get(queue) ?? 0) >= workers + tick);
        expect(fetches.get(queue)).toBe(workers + tick);
      }
      // Sent one by one without a wake (as by another process, or retries coming due): each is found by
      // the lane's next poll, through a worker still idle, while the first ones hold theirs.
      for (let i = 1; i <= workers; i++) {
        await boss.send(queue, { i });
        vi.advanceTimersByTime(500);
        // Taken before the next is sent: from the second on, a worker is busy when a message arrives.
        await until(() => started.length === i);
      }
      await allStarted;
      expect(started.sort()).toEqual([1, 2, 3]);
    } finally {
      vi.useRealTimers();
    }
  }, 20_000);

  it('wakes idle workers in turn, so work sent at once runs at once side by side', async () => {
    const queue = 'lane-wake';
    await boss.createQueue(queue);
    const started: number[] = [];
    let release = () => {};
    const bothStarted = new Promise<void>((resolve) => {
      release = resolve;
    });
    const lane = await LaneWorkers.start(
      boss,
      queue,
      { workers: 2, pollingIntervalSeconds: INTERVAL_SECONDS },
      async (data) => {
        started.push((data as { i: number }).i);
        if (started.length === 2) release();
        // Each holds its worker until both run: one worker woken twice would hold the second for 30 s.
        await bothStarted;
      },
    );
    // Both workers made their first (empty) fetch and sleep.
    await until(() => fetches.get(queue) === 2);
    await boss.send(queue, { i: 1 });
    await boss.send(queue, { i: 2 });
    // Two wakes before either worker fetched: they must reach two workers.
    lane.wake();
    lane.wake();
    await bothStarted;
    expect(started.sort()).toEqual([1, 2]);
  }, 20_000);
});
