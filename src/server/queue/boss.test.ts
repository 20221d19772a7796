import pg from 'pg';
import type PgBoss from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../testing/test-app.ts';
import { until } from '../testing/until.ts';
import { bossPoolClosed, createBoss } from './boss.ts';

/*
 * pg-boss fires the statement that completes a message without awaiting it. A stop that returned with
 * that statement still running let the caller drop the database under it: an unhandled rejection
 * ("terminating connection due to administrator command") that failed a whole test run.
 */

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let locker: pg.Client;
beforeAll(async () => {
  database = await createTestDatabase();
  locker = new pg.Client({ connectionString: database.url });
  await locker.connect();
});
afterAll(async () => {
  await locker?.end();
  await database?.drop();
});

const QUEUE = 'boss-stop-test';

async function stateOf(id: string): Promise<string | undefined> {
  const { rows } = await locker.query('SELECT state FROM pgboss.job WHERE id = $1', [id]);
  return rows[0]?.state;
}

/** True once a pg-boss statement waits on a lock (the completion held up below). */
async function completionWaiting(): Promise<boolean> {
  const { rows } = await locker.query(
    `SELECT 1 FROM pg_stat_activity
      WHERE datname = current_database() AND application_name = 'pgboss' AND wait_event_type = 'Lock'`,
  );
  return rows.length > 0;
}

describe('stopping the queue', () => {
  it('waits for the completion of a message its handler finished, and closes the pool after it', async () => {
    const boss: PgBoss = createBoss(database.url, 60);
    await boss.start();
    await boss.createQueue(QUEUE);
    let release = (): void => {};
    const handlerRunning = new Promise<void>((started) => {
      void boss.work(QUEUE, { pollingIntervalSeconds: 0.5 }, async () => {
        started();
        await new Promise<void>((resolve) => {
          release = resolve;
        });
      });
    });
    const id = (await boss.send(QUEUE, {}))!;
    await handlerRunning;

    // The message's row is held by another transaction, so its completion waits once the handler ends.
    await locker.query('BEGIN');
    await locker.query('SELECT 1 FROM pgboss.job WHERE id = $1 FOR UPDATE', [id]);
    release();
    await until(completionWaiting);

    let bossStopped = false;
    let stopped = false;
    const stopping = (async () => {
      await boss.stop({ graceful: true, timeout: 1_000, wait: true });
      bossStopped = true;
      await bossPoolClosed(boss);
      stopped = true;
    })();
    // pg-boss itself has stopped (its handler had returned): what is left is the held completion, and the
    // stop waits for it rather than close the pool under it.
    await until(() => bossStopped);
    expect(await completionWaiting()).toBe(true);
    expect(stopped).toBe(false);

    await locker.query('COMMIT');
    await stopping;
    expect(await stateOf(id)).toBe('completed');
    // The pool is closed: nothing of pg-boss's is left connected. (A backend whose client has closed its
    // socket leaves pg_stat_activity a moment later: on a busy machine, after this line ran.)
    await until(async () => {
      const { rows } = await locker.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity
          WHERE datname = current_database() AND application_name = 'pgboss'`,
      );
      return rows[0].n === 0;
    }, 5_000);
  });
});

describe("pg-boss's connections", () => {
  it('plan its statements for any queue and do not wait for a disk flush, and a fetch takes its own queue only', async () => {
    const boss: PgBoss = createBoss(database.url, 60);
    await boss.start();
    try {
      const settings = await boss.getDb().executeSql(
        `SELECT current_setting('plan_cache_mode') AS plans, current_setting('synchronous_commit') AS sync
            WHERE $1::boolean`,
        [true],
      );
      expect(settings.rows[0]).toEqual({ plans: 'force_generic_plan', sync: 'off' });

      // One plan for every queue (the table is partitioned by name) must still read the named one only.
      await boss.createQueue('plan-a');
      await boss.createQueue('plan-b');
      for (let i = 0; i < 8; i++) {
        await boss.send('plan-a', { i });
        await boss.send('plan-b', { i });
      }
      const taken: unknown[] = [];
      for (let i = 0; i < 8; i++) {
        const [message] = await boss.fetch('plan-a');
        taken.push(message?.data);
      }
      expect(taken).toEqual(Array.from({ length: 8 }, (_, i) => ({ i })));
      expect(await boss.fetch('plan-a')).toEqual([]);
      expect(await boss.getQueueSize('plan-b')).toBe(8);
    } finally {
      await boss.stop({ graceful: false, wait: true });
      await bossPoolClosed(boss);
    }
  });
});
