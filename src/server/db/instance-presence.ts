import { randomInt } from 'node:crypto';
import type pg from 'pg';
import type { Logger } from '../logger.ts';
import type { Db } from './pool.ts';

/** The advisory-lock space (first key) in which each server instance holds its own key while it lives. */
export const PRESENCE_LOCK_SPACE = 7226102;

/**
 * SQL true when the instance named by `column` (its presence key) is alive: its session-level advisory
 * lock is held. PostgreSQL drops the lock with the session, so a killed process's instance is gone as
 * soon as the kernel closed its connection, on this machine or another.
 */
export function instanceAliveSql(column: string): string {
  return `EXISTS (SELECT 1 FROM pg_locks l
     WHERE l.locktype = 'advisory' AND l.granted AND l.classid = ${PRESENCE_LOCK_SPACE}::oid
       AND l.objid = (${column})::oid AND l.objsubid = 2
       AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database()))`;
}

export interface InstancePresence {
  /** This instance's key, recorded on the jobs it runs. */
  readonly key: number;
  /** Whether the lock is held right now (not while the database is away). */
  held(): boolean;
  stop(): Promise<void>;
}

const RECONNECT_MS = 1_000;

/**
 * Holds this process's presence lock on a connection it keeps out of the pool, and takes it again after the database
 * came back (a restart ends every session). Resolves once the lock is first held.
 */
export async function startPresence(db: Db, log: Logger): Promise<InstancePresence> {
  let key = randomInt(1, 2 ** 31 - 1);
  let client: pg.PoolClient | null = null;
  let dropClient = () => {};
  let held = false;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;

  const reconnectLater = () => {
    if (!stopped) retry = setTimeout(() => void connect().catch(reconnectLater), RECONNECT_MS);
  };
  const connect = async (): Promise<void> => {
    const next = await db.connect();
    let lost = false;
    const drop = () => {
      if (lost) return;
      lost = true;
      next.release(true);
    };
    const onLost = () => {
      // The session is gone, and the lock with it (a database restart, say): take it again.
      drop();
      if (client !== next || stopped) return;
      client = null;
      held = false;
      reconnectLater();
    };
    next.on('error', onLost);
    next.on('end', onLost);
    try {
      for (;;) {
        const { rows } = await next.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1, $2) AS ok', [
          PRESENCE_LOCK_SPACE,
          key,
        ]);
        if (rows[0]?.ok) break;
        // Another live instance drew the same key: draw again.
        key = randomInt(1, 2 ** 31 - 1);
      }
    } catch (error) {
      drop();
      throw error;
    }
    if (stopped) return drop();
    client = next;
    dropClient = drop;
    held = true;
  };

  await connect();
  log.debug('instance presence held', { key });
  return {
    get key() {
      return key;
    },
    held: () => held,
    async stop() {
      stopped = true;
      clearTimeout(retry);
      held = false;
      client = null;
      // Destroying the connection ends the session, and with it the lock.
      dropClient();
    },
  };
}
