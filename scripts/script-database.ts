import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../src/server/config.ts';
import { templatesDirFrom } from '../src/server/db/cluster-template.ts';
import { startEmbeddedPostgres } from '../src/server/db/embedded.ts';
import { migrate } from '../src/server/db/migrate.ts';
import { createPool, type Db } from '../src/server/db/pool.ts';
import type { Logger } from '../src/server/logger.ts';

/** The embedded PostgreSQL of a running `npm start`, if there is one: never start a second on its data. */
function runningEmbeddedUrl(dataDir: string): string | null {
  const pidFile = path.join(dataDir, 'postgres', 'postmaster.pid');
  if (!existsSync(pidFile)) return null;
  const lines = readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number(lines[0]);
  if (!Number.isInteger(pid) || !existsSync(`/proc/${pid}`)) return null;
  const port = Number(lines[3]);
  const password = readFileSync(path.join(dataDir, 'postgres-password'), 'utf8').trim();
  return `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/media_console`;
}

/**
 * The database `npm start` uses, for an operator script: `DATABASE_URL`, else the embedded PostgreSQL of
 * `DATA_DIR` (the running one when the server is up, or started here), migrated. `close` ends it all.
 */
export async function openScriptDatabase(
  config: Config,
  log: Logger,
): Promise<{ db: Db; close(): Promise<void> }> {
  let url = config.DATABASE_URL ?? runningEmbeddedUrl(config.DATA_DIR);
  const embedded = url
    ? null
    : await startEmbeddedPostgres(
        config.DATA_DIR,
        log,
        undefined,
        templatesDirFrom(config.POSTGRES_TEMPLATE_DIR),
      );
  url ??= embedded!.url;
  const db = createPool(url, 2);
  await migrate(db);
  return {
    db,
    close: async () => {
      await db.end();
      await embedded?.stop();
    },
  };
}
