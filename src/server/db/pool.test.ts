import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../testing/test-app.ts';
import { until } from '../testing/until.ts';
import { createPool, transaction } from './pool.ts';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let admin: pg.Client;
beforeAll(async () => {
  database = await createTestDatabase();
  admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
});
afterAll(async () => {
  await admin?.end();
  await database?.drop();
});

/** Ends a session from the server's side, as a PostgreSQL that stops or dies does. */
const terminate = (pid: number) => admin.query('SELECT pg_terminate_backend($1)', [pid]);

describe('a pooled connection lost while checked out', () => {
  it('fails its statements and is dropped by the pool; the process keeps running (no unhandled error event)', async () => {
    const db = createPool(database.url, 2);
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', onUncaught);
    try {
      const failed = await transaction(db, async (tx) => {
        const { rows } = await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
        await terminate(rows[0]!.pid);
        // The client learns of it from its socket: wait until it did, as a transaction busy elsewhere would.
        await until(() => !(tx as unknown as { _queryable: boolean })._queryable, 5_000);
        return tx.query('SELECT 1').then(
          () => null,
          (error: Error) => error,
        );
      }).catch((error: Error) => error);
      expect(failed).toBeInstanceOf(Error);
      expect(uncaught).toEqual([]);
      // The pool made a new connection for the next statement.
      expect((await db.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    } finally {
      process.off('uncaughtException', onUncaught);
      await db.end();
    }
  });
});
