import type { Queryable } from '../../db/pool.ts';
import { type AuditOrigin, OPERATOR, recordAuditEvent } from '../audit/record-audit-event.ts';

/**
 * The operator's corrections of a team's credits (`npm run credits`), each a ledger row written with the
 * change of the balance, in the caller's transaction:
 * - `refund`: gives back all or part of what a completed job was charged. It carries the job's own
 *   attribution (tool, model, key, person, folder), so spend analytics, net of refunds, takes it off
 *   the same figures the charge was counted in.
 * - `adjustment`: a correction of either sign that belongs to no job, with its reason.
 * The balance never goes below zero, as with every other change. Each is recorded in the team's audit log
 * (by the operator, unless told otherwise), in the same transaction.
 */

/** Why a correction was refused: said to the operator as is. */
export class CorrectionRefused extends Error {}

export interface Refund {
  teamId: string;
  refunded: number;
  /** What is left of the job's charge to refund after this one. */
  refundable: number;
  balance: number;
}

/**
 * Refunds `credits` of the job's charge (all of what is left of it when null). Refused for a job that
 * is unknown, was not charged, or has less left to refund than asked. The job's row is locked, so two
 * refunds of one job at once cannot together give back more than it cost.
 */
export async function refundJob(
  tx: Queryable,
  jobId: string,
  credits: number | null,
  note: string,
  origin: AuditOrigin = OPERATOR,
): Promise<Refund> {
  const job = await tx.query<{ team_id: string; tool: string; status: string }>(
    'SELECT team_id, tool, status FROM jobs WHERE id = $1 FOR UPDATE',
    [jobId],
  );
  const row = job.rows[0];
  if (!row) throw new CorrectionRefused(`No job ${jobId}.`);
  const { rows } = await tx.query<{ charged: string; refunded: string }>(
    `SELECT coalesce(-sum(delta_cents) FILTER (WHERE kind = 'settle'), 0) AS charged,
            coalesce(sum(delta_cents) FILTER (WHERE kind = 'refund'), 0) AS refunded
       FROM credit_ledger WHERE job_id = $1 AND team_id = $2`,
    [jobId, row.team_id],
  );
  const left = Number(rows[0]!.charged) - Number(rows[0]!.refunded);
  if (left <= 0) {
    const why =
      row.tool === 'pipeline'
        ? 'a pipeline is charged through its steps: refund those jobs'
        : Number(rows[0]!.charged) > 0
          ? 'its charge was refunded already'
          : `it was not charged (${row.status})`;
    throw new CorrectionRefused(`Job ${jobId} has nothing to refund: ${why}.`);
  }
  const refunded = credits ?? left;
  if (refunded > left) {
    throw new CorrectionRefused(`Job ${jobId} has ${left} credits left to refund, not ${refunded}.`);
  }
  const balance = await tx.query<{ balance_cents: string }>(
    'UPDATE teams SET balance_cents = balance_cents + $2 WHERE id = $1 RETURNING balance_cents',
    [row.team_id, refunded],
  );
  const after = Number(balance.rows[0]!.balance_cents);
  // The charge's own attribution: the refund counts against the same key, person, tool and folder.
  await tx.query(
    `INSERT INTO credit_ledger (team_id, delta_cents, balance_after_cents, kind, reason, person_id, api_key_id,
                                source, tool, model, folder_id, job_id, job_status)
     SELECT team_id, $2, $3, 'refund', $4, person_id, api_key_id, source, tool, model, folder_id, job_id, job_status
       FROM credit_ledger WHERE job_id = $1 AND team_id = $5 AND kind = 'settle'
      ORDER BY id DESC LIMIT 1`,
    [jobId, refunded, after, note, row.team_id],
  );
  await recordAuditEvent(tx, {
    teamId: row.team_id,
    action: 'credits.refunded',
    origin,
    target: { type: 'job', id: jobId },
    details: { credits: refunded, reason: note, balance_after: after, refundable_left: left - refunded },
  });
  return { teamId: row.team_id, refunded, refundable: left - refunded, balance: after };
}

/**
 * Changes the team's balance by `delta` credits (either sign), with the reason. A negative one that
 * would take the balance below zero is refused, with the balance in the message.
 */
export async function adjustCredits(
  tx: Queryable,
  teamId: string,
  delta: number,
  note: string,
  origin: AuditOrigin = OPERATOR,
): Promise<{ balance: number }> {
  const { rows } = await tx.query<{ balance_cents: string }>(
    `UPDATE teams SET balance_cents = balance_cents + $2
      WHERE id = $1 AND balance_cents + $2 >= 0 RETURNING balance_cents`,
    [teamId, delta],
  );
  if (!rows[0]) {
    const current = await tx.query<{ balance_cents: string }>(
      'SELECT balance_cents FROM teams WHERE id = $1',
      [teamId],
    );
    throw new CorrectionRefused(
      `The balance is ${current.rows[0]?.balance_cents ?? 0} credits: taking ${-delta} would leave it below zero.`,
    );
  }
  const balance = Number(rows[0].balance_cents);
  await tx.query(
    `INSERT INTO credit_ledger (team_id, delta_cents, balance_after_cents, kind, reason, source)
     VALUES ($1, $2, $3, 'adjustment', $4, 'internal')`,
    [teamId, delta, balance, note],
  );
  await recordAuditEvent(tx, {
    teamId,
    action: 'credits.adjusted',
    origin,
    target: { type: 'team', id: teamId },
    details: { credits: delta, reason: note, balance_after: balance },
  });
  return { balance };
}
