import type { Db } from '../../db/pool.ts';
import { auditHash } from './audit-hash.ts';

/** The first link of a team's chain that does not hold, and why. */
export interface BrokenLink {
  teamId: string;
  /** The entry where the chain breaks (null when entries are missing at its end). */
  id: string | null;
  seq: number;
  reason: string;
}

export interface ChainReport {
  teams: number;
  checked: number;
  broken: BrokenLink[];
}

interface Row {
  id: string;
  team_id: string;
  seq: number;
  occurred_at: string;
  actor_type: string;
  actor_person_id: string | null;
  actor_api_key_id: string | null;
  action: string;
  target_type: string | null;
  target_id: string | null;
  client_address: string | null;
  user_agent: string | null;
  details: unknown;
  prev_hash: string | null;
  hash: string;
}

const BATCH = 2000;

/**
 * Walks each team's chain from its first entry (or only `teamId`'s): every entry must be the next `seq`,
 * name the previous entry's hash, and hash to what it carries; the chain must end where its head says.
 * Each team's first broken link is reported; the rest of that chain is not read further.
 */
export async function verifyAuditChains(db: Db, options: { teamId?: string } = {}): Promise<ChainReport> {
  const { rows: heads } = await db.query<{ team_id: string; seq: number; hash: string | null }>(
    `SELECT team_id::text, seq, hash FROM audit_chain_heads ${options.teamId ? 'WHERE team_id = $1' : ''}
      UNION
     SELECT DISTINCT team_id::text, NULL::bigint, NULL::text FROM audit_events e
      WHERE NOT EXISTS (SELECT 1 FROM audit_chain_heads h WHERE h.team_id = e.team_id)
        ${options.teamId ? 'AND e.team_id = $1' : ''}
      ORDER BY 1`,
    options.teamId ? [options.teamId] : [],
  );
  const report: ChainReport = { teams: heads.length, checked: 0, broken: [] };
  for (const head of heads) {
    const broken = await verifyTeam(db, head, (n) => {
      report.checked += n;
    });
    if (broken) report.broken.push(broken);
  }
  return report;
}

async function verifyTeam(
  db: Db,
  head: { team_id: string; seq: number | null; hash: string | null },
  count: (n: number) => void,
): Promise<BrokenLink | null> {
  const teamId = head.team_id;
  if (head.seq === null)
    return { teamId, id: null, seq: 0, reason: 'the team has entries but no chain head' };
  let expectedSeq = 1;
  let prevHash: string | null = null;
  for (;;) {
    const { rows } = await db.query<Row>(
      `SELECT id, team_id::text, seq, to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS occurred_at,
              actor_type, actor_person_id::text, actor_api_key_id, action, target_type, target_id, client_address,
              user_agent, details, prev_hash, hash
         FROM audit_events WHERE team_id = $1 AND seq >= $2 ORDER BY seq LIMIT ${BATCH}`,
      [teamId, expectedSeq],
    );
    for (const row of rows) {
      count(1);
      const at = (reason: string): BrokenLink => ({ teamId, id: row.id, seq: row.seq, reason });
      if (row.seq !== expectedSeq) return at(`entry ${expectedSeq} is missing (the next one is ${row.seq})`);
      if (row.prev_hash !== prevHash) return at('it does not carry the previous entry’s hash');
      const hash = auditHash({
        id: row.id,
        teamId: row.team_id,
        seq: row.seq,
        occurredAt: row.occurred_at,
        actorType: row.actor_type,
        actorPersonId: row.actor_person_id,
        actorApiKeyId: row.actor_api_key_id,
        action: row.action,
        targetType: row.target_type,
        targetId: row.target_id,
        clientAddress: row.client_address,
        userAgent: row.user_agent,
        details: row.details,
        prevHash: row.prev_hash,
      });
      if (hash !== row.hash) return at('its contents do not match its hash (it was changed)');
      prevHash = row.hash;
      expectedSeq += 1;
    }
    if (rows.length < BATCH) break;
  }
  const last = expectedSeq - 1;
  if (last !== Number(head.seq) || prevHash !== head.hash) {
    return {
      teamId,
      id: null,
      seq: last + 1,
      reason: `the chain ends at entry ${last} but its head says ${head.seq}: entries were removed or added around it`,
    };
  }
  return null;
}
