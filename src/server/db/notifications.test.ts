import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../testing/test-app.ts';
import { until } from '../testing/until.ts';
import { listenForNotifications } from './notifications.ts';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let sender: pg.Client;
beforeAll(async () => {
  database = await createTestDatabase();
  sender = new pg.Client({ connectionString: database.url });
  await sender.connect();
});
afterAll(async () => {
  await sender?.end();
  await database?.drop();
});

describe('listenForNotifications', () => {
  it('passes on its channel payloads, listens again after its connection is lost, and stops', async () => {
    const payloads: string[] = [];
    let connects = 0;
    const stop = await listenForNotifications(
      database.url,
      'test_channel',
      (payload) => payloads.push(payload),
      () => connects++,
    );
    expect(connects).toBe(1);
    await sender.query(`SELECT pg_notify('test_channel', 'one'), pg_notify('other_channel', 'not ours')`);
    await until(() => payloads.length === 1);

    // A database restart ends the session: the listener comes back, and says so (to catch up).
    await sender.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'listen test_channel'`,
    );
    await until(() => connects === 2);
    await sender.query(`SELECT pg_notify('test_channel', 'two')`);
    await until(() => payloads.length === 2);

    // Stopped: its session ends (the server sees it go), so nothing sent after can reach it.
    await stop();
    await until(async () => {
      const { rows } = await sender.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'listen test_channel'`,
      );
      return rows[0].n === 0;
    }, 5_000);
    await sender.query(`SELECT pg_notify('test_channel', 'three')`);
    expect(payloads).toEqual(['one', 'two']);
  }, 20_000);
});
