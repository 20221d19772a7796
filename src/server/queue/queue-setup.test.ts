import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../config.ts';
import { PRESENCE_LOCK_SPACE } from '../db/instance-presence.ts';
import { listenForNotifications } from '../db/notifications.ts';
import { createPool, type Db } from '../db/pool.ts';
import { RUN_JOB_QUEUE } from '../domain/jobs/queue-names.ts';
import { createLogger } from '../logger.ts';
import { createServices } from '../services-factory.ts';
import { createTestApp, createTestDatabase, type TestApp } from '../testing/test-app.ts';
import { until } from '../testing/until.ts';
import { startQueue } from './boss.ts';
import { LaneWorkers } from './lane-workers.ts';
import { QUEUE_WORK_CHANNEL } from './queue-waker.ts';

/**
 * A second process's services on the database the test app set up, with the configuration it is given
 * (and the test app's pool, unless it is given its own).
 */
function servicesAgain(t: TestApp, env: Record<string, string>, db: Db = t.db) {
  const config = loadConfig({
    DATABASE_URL: t.config.DATABASE_URL!,
    APP_SECRET: t.config.APP_SECRET!,
    DATA_DIR: t.config.DATA_DIR,
    LOG_LEVEL: 'silent',
    ...env,
  });
  return createServices(config, db, config.DATABASE_URL!, createLogger('silent'), config.APP_SECRET!, {});
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

/** The advisory locks held on the test database: the queue's set-up lock (boss.ts), and instances' presence. */
async function advisoryLocks(): Promise<{ setup: number; presences: number }> {
  const { rows } = await t.db.query<{ setup: number; presences: number }>(
    `SELECT count(*) FILTER (WHERE classid = 0 AND objid = 7226102 AND objsubid = 1)::int AS setup,
            count(*) FILTER (WHERE classid = $1::oid AND objsubid = 2)::int AS presences
       FROM pg_locks
      WHERE locktype = 'advisory' AND granted
        AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
    [PRESENCE_LOCK_SPACE],
  );
  return rows[0]!;
}

describe('queue start beside the migrations', () => {
  it('takes no work before the schema is ready: it starts only once the migrations are done', async () => {
    const services = servicesAgain(t, {});
    let migrated = (): void => {};
    const schemaReady = new Promise<void>((resolve) => {
      migrated = resolve;
    });
    const presencesBefore = (await advisoryLocks()).presences;
    const bossStarts = vi.spyOn(services.boss, 'start');
    const lanesStart = vi.spyOn(LaneWorkers, 'start');
    let started = false;
    const starting = startQueue(services, { work: true }, schemaReady).then((queue) => {
      started = true;
      return queue;
    });
    // pg-boss has started and made its queues (its set-up lock is free again) and the presence lock is
    // held: all the start waits for besides the schema. Without that wait the workers would start now.
    await until(() => bossStarts.mock.results.length > 0);
    await bossStarts.mock.results[0]!.value;
    await until(async () => {
      const held = await advisoryLocks();
      return held.setup === 0 && held.presences > presencesBefore;
    });
    expect(lanesStart).not.toHaveBeenCalled();
    expect(started).toBe(false);
    expect(services.jobRuns.presence).toBeNull();
    migrated();
    const queue = await starting;
    expect(lanesStart).toHaveBeenCalled();
    lanesStart.mockRestore();
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
    const pool = createPool(t.config.DATABASE_URL!, 2);
    const alone = servicesAgain(t, {}, pool);
    const aloneQueue = await startQueue(alone, { work: false });
    try {
      alone.wakeQueue(RUN_JOB_QUEUE);
      // A marker sent on its pool once every statement it began has ended: notifications are heard in
      // the order they committed, so an announcement would be heard before the marker.
      await until(() => pool.waitingCount === 0 && pool.idleCount === pool.totalCount);
      await pool.query('SELECT pg_notify($1, $2)', [QUEUE_WORK_CHANNEL, 'marker']);
      await until(() => heard.includes('marker'));
      expect(heard).toEqual([RUN_JOB_QUEUE, 'marker']);
    } finally {
      await aloneQueue.stop();
      await stopListening();
      await pool.end();
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
