import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../testing/test-app.ts';
import { sleep, until } from '../testing/until.ts';
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

    await stop();
    await sender.query(`SELECT pg_notify('test_channel', 'three')`);
    await sleep(300);
    expect(payloads).toEqual(['one', 'two']);
    const { rows } = await sender.query(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'listen test_channel'`,
    );
    expect(rows[0].n).toBe(0);
  }, 20_000);
});
