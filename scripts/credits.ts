import { loadConfig } from '../src/server/config.ts';
import { createLogger } from '../src/server/logger.ts';
import { parseCreditsArgs, runCredits, USAGE } from './credits-command.ts';
import { openScriptDatabase } from './script-database.ts';

/** `npm run credits -- <command>` (credits-command.ts says what each does) on the database `npm start` uses. */
const args = process.argv.slice(2);
// A usage error is told before any database is opened (or an embedded one started).
if (!parseCreditsArgs(args)) {
  process.stderr.write(`${USAGE}\n`);
  process.exit(2);
}
const { db, close } = await openScriptDatabase(loadConfig(), createLogger('warn'));
let exitCode: number;
try {
  exitCode = await runCredits(db, args, {
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
  });
} finally {
  await close();
}
process.exit(exitCode);
