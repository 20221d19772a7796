import { type Db, transaction } from '../src/server/db/pool.ts';
import { OPERATOR } from '../src/server/domain/audit/record-audit-event.ts';
import { adjustCredits, CorrectionRefused, refundJob } from '../src/server/domain/billing/corrections.ts';
import { grantCredits } from '../src/server/domain/identity/accounts.ts';

/**
 * `npm run credits -- <command>`: the operator's changes of a team's credits (api-extensions.md: credits
 * are granted by an operator command), each written to the ledger with its note, in the database
 * `npm start` uses. A team is named by its id or by a person's email (their personal team).
 *   grant <team> <credits> [note]        adds credits (a top-up)
 *   adjust <team> <±credits> <note>      corrects the balance either way (a `+` or `-` sign is required)
 *   refund <job_id> <credits|all> [note] gives back what a completed job was charged, or part of it
 *   balance <team>                       shows the balance
 */
export const USAGE = [
  'usage: npm run credits -- grant <team_id|email> <credits> [note]',
  '                        | adjust <team_id|email> <+credits|-credits> <note>',
  '                        | refund <job_id> <credits|all> [note]',
  '                        | balance <team_id|email>',
  '(credits: a whole number from 1 to 100,000,000)',
].join('\n');
const MAX_CREDITS = 100_000_000;

/** A whole number of credits from 1 to MAX_CREDITS, or null. */
function creditsOf(text: string | undefined): number | null {
  const value = Number(text);
  return text && /^\d+$/.test(text) && value >= 1 && value <= MAX_CREDITS ? value : null;
}

/** A signed change: `+250` or `-250` (the sign is required, so a correction's direction is never a guess). */
function deltaOf(text: string | undefined): number | null {
  const match = /^([+-])(\d+)$/.exec(text ?? '');
  const credits = match ? creditsOf(match[2]) : null;
  return credits === null ? null : match![1] === '-' ? -credits : credits;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface Team {
  id: string;
  name: string;
}

/** The team a team id or a person's email names (their personal team), or null. */
async function teamNamed(db: Db, name: string): Promise<Team | null> {
  const { rows } = UUID.test(name)
    ? await db.query<Team>('SELECT id, name FROM teams WHERE id = $1', [name])
    : await db.query<Team>(
        `SELECT t.id, t.name FROM teams t JOIN persons p ON t.personal_person_id = p.id
          WHERE lower(p.email) = lower($1)`,
        [name],
      );
  return rows[0] ?? null;
}

async function teamById(db: Db, id: string): Promise<Team> {
  const { rows } = await db.query<Team>('SELECT id, name FROM teams WHERE id = $1', [id]);
  return rows[0]!;
}

/** What the command prints: its answers, and why it refused. */
export interface CommandOutput {
  out(text: string): void;
  err(text: string): void;
}

export interface Parsed {
  command: string;
  target: string;
  amount: string | undefined;
  note: string;
}

/** Runs the command; answers the team whose balance to show, or null when it printed why not. */
async function run(
  db: Db,
  { command, target, amount, note }: Parsed,
  io: CommandOutput,
): Promise<Team | null> {
  if (command === 'refund') {
    const refund = await transaction(db, (tx) =>
      refundJob(tx, target, amount === 'all' ? null : creditsOf(amount), note || 'operator refund'),
    );
    const team = await teamById(db, refund.teamId);
    const left = refund.refundable ? ` (${refund.refundable} credits of its charge left to refund)` : '';
    io.out(`Refunded ${refund.refunded} credits of ${target} to ${team.name}${left}.\n`);
    return team;
  }
  const team = await teamNamed(db, target);
  if (!team) {
    io.err(`No team is named by ${target}: give a team id, or the email of a person.\n`);
    return null;
  }
  if (command === 'grant') {
    const reason = note || 'operator grant';
    await transaction(db, (tx) => grantCredits(tx, team.id, creditsOf(amount)!, reason, null, OPERATOR));
    io.out(`Granted ${amount} credits to ${team.name} (${team.id}): "${reason}".\n`);
  } else if (command === 'adjust') {
    const delta = deltaOf(amount)!;
    await transaction(db, (tx) => adjustCredits(tx, team.id, delta, note));
    io.out(`Adjusted ${team.name} (${team.id}) by ${amount} credits: "${note}".\n`);
  }
  return team;
}

/** The command and its arguments when they make sense, else null (the caller prints USAGE, exit code 2). */
export function parseCreditsArgs(args: readonly string[]): Parsed | null {
  const [command, target, amount, ...noteWords] = args;
  const note = noteWords.join(' ').trim();
  const valid =
    (command === 'balance' && target) ||
    (command === 'grant' && target && creditsOf(amount) !== null) ||
    (command === 'adjust' && target && deltaOf(amount) !== null && note) ||
    (command === 'refund' && target && (amount === 'all' || creditsOf(amount) !== null));
  return valid ? { command: command!, target: target!, amount, note } : null;
}

/**
 * `npm run credits -- <args>` on `db`: prints through `io` and answers the exit code (0 done, 1 refused,
 * 2 a usage error). The CLI (credits.ts) is a thin wrapper; tests call this in-process.
 */
export async function runCredits(db: Db, args: readonly string[], io: CommandOutput): Promise<number> {
  const parsed = parseCreditsArgs(args);
  if (!parsed) {
    io.err(`${USAGE}\n`);
    return 2;
  }
  const team = await run(db, parsed, io).catch((error: unknown) => {
    if (!(error instanceof CorrectionRefused)) throw error;
    io.err(`${error.message}\n`);
    return null;
  });
  if (!team) return 1;
  const { rows } = await db.query<{ balance_cents: string }>(
    'SELECT balance_cents FROM teams WHERE id = $1',
    [team.id],
  );
  io.out(`Balance of ${team.name} (${team.id}): ${rows[0]!.balance_cents} credits.\n`);
  return 0;
}
