import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../src/server/config.ts';
import { type EmbeddedDatabase, startEmbeddedPostgres } from '../src/server/db/embedded.ts';
import { migrate } from '../src/server/db/migrate.ts';
import { createPool } from '../src/server/db/pool.ts';
import { pendingTemplates, reviewTemplate } from '../src/server/domain/templates/template-store.ts';
import { AppError } from '../src/server/errors.ts';
import { createLogger } from '../src/server/logger.ts';

/**
 * `npm run templates -- pending | approve <id> | reject <id>`: the operator's review of published
 * templates, in the database `npm start` uses (`DATABASE_URL`, else the embedded PostgreSQL of `DATA_DIR`,
 * the running one when the server is up).
 */
const USAGE = 'usage: npm run templates -- pending | approve <tpl_id> | reject <tpl_id>';
const [command, id] = process.argv.slice(2);
if (!(command === 'pending' || ((command === 'approve' || command === 'reject') && id))) {
  process.stderr.write(`${USAGE}\n`);
  process.exit(2);
}

const config = loadConfig();

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

let embedded: EmbeddedDatabase | null = null;
let url = config.DATABASE_URL ?? runningEmbeddedUrl(config.DATA_DIR);
if (!url) {
  embedded = await startEmbeddedPostgres(config.DATA_DIR, createLogger('warn'));
  url = embedded.url;
}
const db = createPool(url, 2);
let exitCode = 0;
try {
  await migrate(db);
  if (command === 'pending') {
    const pending = await pendingTemplates(db);
    if (pending.length === 0) process.stdout.write('No template is waiting for review.\n');
    for (const tpl of pending) {
      const by = tpl.author?.display_name ?? 'unknown';
      process.stdout.write(`${tpl.id}  ${tpl.name}  (${tpl.tool}, by ${by}, ${tpl.created_at})\n`);
    }
  } else if (id) {
    const reviewed = await reviewTemplate(db, id, command === 'approve' ? 'approve' : 'reject');
    process.stdout.write(`${reviewed.id} "${reviewed.name}" is now ${reviewed.status}.\n`);
  }
} catch (error) {
  if (!(error instanceof AppError)) throw error;
  process.stderr.write(`${error.message}\n`);
  exitCode = 1;
} finally {
  await db.end();
  await embedded?.stop();
}
process.exit(exitCode);
