import type { Db } from '../../db/pool.ts';
import { type AuditRequestInfo, recordAuditEvent } from './record-audit-event.ts';

/**
 * A refused sign-in code for an address that has an account: recorded in that person's own team, where
 * its owner sees someone trying codes. An address with no account has no team to tell (and recording it
 * anywhere would let a stranger fill a log); the per-address limit bounds how many there can be.
 */
export async function recordFailedSignIn(
  db: Db,
  email: string,
  request: AuditRequestInfo,
  reason: string,
): Promise<void> {
  const { rows } = await db.query<{ person_id: string; team_id: string }>(
    `SELECT p.id AS person_id, t.id AS team_id FROM persons p JOIN teams t ON t.personal_person_id = p.id
      WHERE p.email = $1`,
    [email],
  );
  const found = rows[0];
  if (!found) return;
  await recordAuditEvent(db, {
    teamId: found.team_id,
    action: 'auth.sign_in_failed',
    origin: { actor: { type: 'anonymous', personId: null, apiKeyId: null }, request },
    target: { type: 'person', id: found.person_id },
    details: { email, reason },
  });
}
