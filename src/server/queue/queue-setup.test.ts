import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../config.ts';
import { listenForNotifications } from '../db/notifications.ts';
import { createPool } from '../db/pool.ts';
import { RUN_JOB_QUEUE } from '../domain/jobs/queue-names.ts';
import { createLogger } from '../logger.ts';
import { createServices } from '../services-factory.ts';
import { createTestApp, createTestDatabase, type TestApp } from '../testing/test-app.ts';
import { sleep, until } from '../testing/until.ts';
import { startQueue } from './boss.ts';
import { QUEUE_WORK_CHANNEL } from './queue-waker.ts';

/** A second process's services on the database the test app set up, with the configuration it is given. */
function servicesAgain(t: TestApp, env: Record<string, string>) {
  const config = loadConfig({
    DATABASE_URL: t.config.DATABASE_URL!,
    APP_SECRET: t.config.APP_SECRET!,
    DATA_DIR: t.config.DATA_DIR,
    LOG_LEVEL: 'silent',
    ...env,
  });
  return createServices(config, t.db, config.DATABASE_URL!, createLogger('silent'), config.APP_SECRET!, {});
}

/** A second process starting on the database the test app set up. */
async function startAgain(t: TestApp, env: Record<string, string>) {
  const services = servicesAgain(t, env);
  const create = vi.spyOn(services.boss, 'createQueue');
  const update = vi.spyOn(services.boss, 'updateQueue');
  const queue = await startQueue(services, { work: false });
  const stored = await services.boss.getQueue(RUN_JOB_QUEUE);
  await queue.stop();
  return { writes: create.mock.calls.length + update.mock.calls.length, stored };
}

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ JOB_LEASE_SECONDS: '600' }, { work: false });
});
afterAll(() => t?.close());

describe('queue set-up at start', () => {
  it('writes nothing when every queue is in place with the same options', async () => {
    const { writes, stored } = await startAgain(t, { JOB_LEASE_SECONDS: '600' });
    expect(writes).toBe(0);
    expect(stored?.expireInSeconds).toBe(600);
  });

  it('updates a queue whose options changed (a new JOB_LEASE_SECONDS)', async () => {
    const { writes, stored } = await startAgain(t, { JOB_LEASE_SECONDS: '900' });
    expect(writes).toBeGreaterThan(0);
    expect(stored?.expireInSeconds).toBe(900);
  });
});

describe('processes starting at once on a new database', () => {
  it("create no queue, pg-boss's own included, while another process sets its queues up", async () => {
    // Queue creations of two processes at once deadlock (each inserts its queue's row, then adds a foreign
    // key to that table); pg-boss's start creates its cron queue, and that start, outside the lock, made a
    // start of ours fail with "deadlock detected". Here another process holds the lock, as in its set-up.
    const database = await createTestDatabase();
    const db = createPool(database.url, 4);
    const other = await db.connect();
    try {
      await other.query('SELECT pg_advisory_lock(7226102)');
      const config = loadConfig({
        DATABASE_URL: database.url,
        APP_SECRET: t.config.APP_SECRET!,
        DATA_DIR: t.config.DATA_DIR,
        LOG_LEVEL: 'silent',
      });
      const services = createServices(
        config,
        db,
        database.url,
        createLogger('silent'),
        config.APP_SECRET!,
        {},
      );
      const starting = startQueue(services, { work: false });
      // Once its start waits for the lock, whatever it did before is in the database to see.
      await until(async () => {
        const waiting = await other.query(
          `SELECT 1 FROM pg_locks
            WHERE locktype = 'advisory' AND objid = 7226102 AND NOT granted
              AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
        );
        return waiting.rows.length > 0;
      });
      const { rows } = await other.query(`SELECT to_regclass('pgboss.queue') AS queues`);
      expect(rows[0].queues).toBeNull();

      await other.query('SELECT pg_advisory_unlock(7226102)');
      const queue = await starting;
      const names = (await services.boss.getQueues()).map((q) => q.name);
      expect(names).toEqual(expect.arrayContaining([RUN_JOB_QUEUE, '__pgboss__send-it']));
      await queue.stop();
    } finally {
      other.release();
      await db.end();
      await database.drop();
    }
  }, 30_000);
});

describe('queue start beside the migrations', () => {
  it('takes no work before the schema is ready: it starts only once the migrations are done', async () => {
    const services = servicesAgain(t, {});
    let migrated = (): void => {};
    const schemaReady = new Promise<void>((resolve) => {
      migrated = resolve;
    });
    let started = false;
    const starting = startQueue(services, { work: true }, schemaReady).then((queue) => {
      started = true;
      return queue;
    });
    // pg-boss and the presence lock are ready well within this; the workers still wait.
    await sleep(500);
    expect(started).toBe(false);
    expect(services.jobRuns.presence).toBeNull();
    migrated();
    const queue = await starting;
    expect(services.jobRuns.presence?.held()).toBe(true);
    await queue.stop();
  });

  it('fails with the error of the migrations, and leaves no pg-boss or presence lock running', async () => {
    const services = servicesAgain(t, {});
    const stopped = vi.spyOn(services.boss, 'stop');
    await expect(
      startQueue(services, { work: true }, Promise.reject(new Error('migration 014 failed'))),
    ).rejects.toThrow('migration 014 failed');
    expect(stopped).toHaveBeenCalled();
    expect(services.jobRuns.presence).toBeNull();
  });
});

describe('new work across processes on one database', () => {
  it('an api process on a shared database announces the work it cannot run; on its own database it does not', async () => {
    const heard: string[] = [];
    const stopListening = await listenForNotifications(t.config.DATABASE_URL!, QUEUE_WORK_CHANNEL, (name) =>
      heard.push(name),
    );
    const api = servicesAgain(t, {});
    const apiQueue = await startQueue(api, { work: false, sharedDatabaseUrl: t.config.DATABASE_URL! });
    try {
      api.wakeQueue(RUN_JOB_QUEUE);
      await until(() => heard.length > 0);
      expect(heard).toEqual([RUN_JOB_QUEUE]);
    } finally {
      await apiQueue.stop();
    }

    // On its own database (embedded), nobody else could take the work: nothing is announced.
    const alone = servicesAgain(t, {});
    const aloneQueue = await startQueue(alone, { work: false });
    try {
      alone.wakeQueue(RUN_JOB_QUEUE);
      await sleep(300);
      expect(heard).toEqual([RUN_JOB_QUEUE]);
    } finally {
      await aloneQueue.stop();
      await stopListening();
    }
  });

  it('a working process on a shared database wakes a worker when work is announced', async () => {
    const services = servicesAgain(t, {});
    const queue = await startQueue(services, { work: true, sharedDatabaseUrl: t.config.DATABASE_URL! });
    try {
      const { rows } = await t.db.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()`,
        [`listen ${QUEUE_WORK_CHANNEL}`],
      );
      expect(rows[0].n).toBe(1);
      const fetched = vi.spyOn(services.boss, 'notifyWorker');
      await t.db.query('SELECT pg_notify($1, $2)', [QUEUE_WORK_CHANNEL, RUN_JOB_QUEUE]);
      await until(() => fetched.mock.calls.length > 0);
      expect(fetched).toHaveBeenCalled();
    } finally {
      await queue.stop();
    }
    const { rows } = await t.db.query(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()`,
      [`listen ${QUEUE_WORK_CHANNEL}`],
    );
    expect(rows[0].n).toBe(0);
  });
});
