import { loadConfig } from '../src/server/config.ts';
import { type Db, transaction } from '../src/server/db/pool.ts';
import { grantCredits } from '../src/server/domain/identity/accounts.ts';
import { createLogger } from '../src/server/logger.ts';
import { openScriptDatabase } from './script-database.ts';

/**
 * `npm run credits -- grant <team id or email> <credits> [note]` and `balance <team id or email>`: the
 * operator's top-up of a team (api-extensions.md: credits are granted by an operator command), written to
 * the ledger as a `grant` with its note, in the database `npm start` uses. An email names that person's
 * personal team.
 */
const USAGE = 'usage: npm run credits -- grant <team_id|email> <credits> [note] | balance <team_id|email>';
const [command, who, amount, ...noteWords] = process.argv.slice(2);
const credits = Number(amount);
const valid =
  (command === 'balance' && who) ||
  (command === 'grant' && who && Number.isSafeInteger(credits) && credits > 0 && credits <= 100_000_000);
if (!valid) {
  process.stderr.write(`${USAGE}\n(credits: a whole number from 1 to 100,000,000)\n`);
  process.exit(2);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The team a team id or a person's email names (their personal team), or null. */
async function teamOf(db: Db, name: string): Promise<{ id: string; name: string } | null> {
  const { rows } = UUID.test(name)
    ? await db.query<{ id: string; name: string }>('SELECT id, name FROM teams WHERE id = $1', [name])
    : await db.query<{ id: string; name: string }>(
        `SELECT t.id, t.name FROM teams t JOIN persons p ON t.personal_person_id = p.id
          WHERE lower(p.email) = lower($1)`,
        [name],
      );
  return rows[0] ?? null;
}

const { db, close } = await openScriptDatabase(loadConfig(), createLogger('warn'));
let exitCode = 0;
try {
  const team = await teamOf(db, who!);
  if (!team) {
    process.stderr.write(`No team is named by ${who}: give a team id, or the email of a person.\n`);
    exitCode = 1;
  } else {
    if (command === 'grant') {
      const note = noteWords.join(' ').trim() || 'operator grant';
      await transaction(db, (tx) => grantCredits(tx, team.id, credits, note, null));
      process.stdout.write(`Granted ${credits} credits to ${team.name} (${team.id}): "${note}".\n`);
    }
    const { rows } = await db.query<{ balance_cents: string }>(
      'SELECT balance_cents FROM teams WHERE id = $1',
      [team.id],
    );
    process.stdout.write(`Balance of ${team.name} (${team.id}): ${rows[0]!.balance_cents} credits.\n`);
  }
} finally {
  await close();
}
process.exit(exitCode);
