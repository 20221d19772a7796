import type { Db } from '../src/server/db/pool.ts';
import { verifyAuditChains } from '../src/server/domain/audit/verify-chain.ts';
import type { CommandOutput } from './credits-command.ts';

/**
 * `npm run audit -- verify [--team <team_id>]`: checks the audit log's hash chains (every team's, or one),
 * prints how many entries it checked and each broken chain's first bad link. Exit code 0 when every chain
 * holds, 1 on a break, 2 on a usage error.
 */
export const USAGE = 'usage: npm run audit -- verify [--team <team_id>]';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function parseAuditArgs(args: readonly string[]): { teamId?: string } | null {
  const [command, flag, teamId, ...rest] = args;
  if (command !== 'verify' || rest.length) return null;
  if (flag === undefined) return {};
  return flag === '--team' && teamId && UUID.test(teamId) ? { teamId: teamId.toLowerCase() } : null;
}

export async function runAudit(db: Db, args: readonly string[], io: CommandOutput): Promise<number> {
  const parsed = parseAuditArgs(args);
  if (!parsed) {
    io.err(`${USAGE}\n`);
    return 2;
  }
  const report = await verifyAuditChains(db, parsed);
  const teams = `${report.teams} ${report.teams === 1 ? 'team' : 'teams'}`;
  io.out(`Checked ${report.checked} audit entries in ${teams}.\n`);
  for (const b of report.broken) {
    io.err(`BROKEN: team ${b.teamId}, at entry ${b.seq}${b.id ? ` (${b.id})` : ''}: ${b.reason}.\n`);
  }
  if (report.broken.length) return 1;
  io.out('Every chain holds.\n');
  return 0;
}
