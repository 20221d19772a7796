import { loadConfig } from '../src/server/config.ts';
import { createLogger } from '../src/server/logger.ts';
import { parseAuditArgs, runAudit, USAGE } from './audit-command.ts';
import { openScriptDatabase } from './script-database.ts';

/** `npm run audit -- verify [--team <id>]` (audit-command.ts) on the database `npm start` uses. */
const args = process.argv.slice(2);
// A usage error is told before any database is opened (or an embedded one started).
if (!parseAuditArgs(args)) {
  process.stderr.write(`${USAGE}\n`);
  process.exit(2);
}
const { db, close } = await openScriptDatabase(loadConfig(), createLogger('warn'));
let exitCode: number;
try {
  exitCode = await runAudit(db, args, {
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
  });
} finally {
  await close();
}
process.exit(exitCode);
