import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../config.ts';
import { RUN_JOB_QUEUE } from '../domain/jobs/queue-names.ts';
import { createLogger } from '../logger.ts';
import { createServices } from '../services-factory.ts';
import { createTestApp, type TestApp } from '../testing/test-app.ts';
import { startQueue } from './boss.ts';

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
    await new Promise((resolve) => setTimeout(resolve, 500));
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
