import { loadConfig } from '../src/server/config.ts';
import { transaction } from '../src/server/db/pool.ts';
import { OPERATOR } from '../src/server/domain/audit/record-audit-event.ts';
import { pendingTemplates, reviewTemplate } from '../src/server/domain/templates/template-store.ts';
import { AppError } from '../src/server/errors.ts';
import { createLogger } from '../src/server/logger.ts';
import { openScriptDatabase } from './script-database.ts';

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

const { db, close } = await openScriptDatabase(config, createLogger('warn'));
let exitCode = 0;
try {
  if (command === 'pending') {
    const pending = await pendingTemplates(db);
    if (pending.length === 0) process.stdout.write('No template is waiting for review.\n');
    for (const tpl of pending) {
      const by = tpl.author?.display_name ?? 'unknown';
      process.stdout.write(`${tpl.id}  ${tpl.name}  (${tpl.tool}, by ${by}, ${tpl.created_at})\n`);
    }
  } else if (id) {
    const decision = command === 'approve' ? 'approve' : 'reject';
    const reviewed = await transaction(db, (tx) => reviewTemplate(tx, id, decision, OPERATOR));
    process.stdout.write(`${reviewed.id} "${reviewed.name}" is now ${reviewed.status}.\n`);
  }
} catch (error) {
  if (!(error instanceof AppError)) throw error;
  process.stderr.write(`${error.message}\n`);
  exitCode = 1;
} finally {
  await close();
}
process.exit(exitCode);
