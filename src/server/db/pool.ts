import pg from 'pg';

export type Db = pg.Pool;
export type Queryable = pg.Pool | pg.PoolClient;

// BIGINT (int8) columns hold credits and counts well within 2^53: read them as numbers.
pg.types.setTypeParser(20, (value) => Number(value));

/**
 * A pool whose clients can lose their connection without taking the process down. node-postgres emits
 * 'error' on a client whose connection dies (PostgreSQL killed or restarted), and pg-pool listens only
 * while the client is idle: a client checked out at that moment (a transaction, a lock held on a
 * connection of its own) had no listener, and Node threw the unhandled 'error' event ("terminating
 * connection due to unexpected postmaster exit"), ending the server. Every client now has a listener
 * for its whole life. Nothing is lost by ignoring it there: the statement in flight rejects with the same
 * error, a later one with "not queryable", and pg-pool drops the client when it is released.
 */
export function guardedPool(config: pg.PoolConfig): pg.Pool {
  const pool = new pg.Pool(config);
  pool.on('connect', (client) => {
    client.on('error', () => {});
  });
  return pool;
}

export function createPool(url: string, max = 10): Db {
  const pool = guardedPool({ connectionString: url, max, idleTimeoutMillis: 30_000 });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  return pool;
}

/** Runs `work` in a transaction, committing on success and rolling back on any error. */
export async function transaction<T>(db: Db, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await db.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}
