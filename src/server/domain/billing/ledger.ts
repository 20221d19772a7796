import type { Queryable } from '../../db/pool.ts';

/** What every ledger row of a job carries, so analytics can filter and group by it. */
export interface ChargeAttribution {
  teamId: string;
  personId: string | null;
  apiKeyId: string | null;
  source: 'app' | 'api' | 'mcp' | 'internal';
  tool: string;
  model: string;
  folderId: string | null;
  jobId: string;
  jobStatus: string;
}

async function writeRow(
  tx: Queryable,
  kind: 'hold' | 'settle' | 'release',
  delta: number,
  balanceAfter: number,
  a: ChargeAttribution,
) {
  await tx.query(
    `INSERT INTO credit_ledger (team_id, delta_cents, balance_after_cents, kind, person_id, api_key_id, source, tool, model, folder_id, job_id, job_status)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
    [
      a.teamId,
      delta,
      balanceAfter,
      kind,
      a.personId,
      a.apiKeyId,
      a.source,
      a.tool,
      a.model,
      a.folderId,
      a.jobId,
      a.jobStatus,
    ],
  );
}

/**
 * Holds `cents` of the team's balance, in the caller's transaction. One conditional UPDATE takes the
 * credits only if they are there, so concurrent holds can never take the balance below zero.
 * Returns false when the balance is too low.
 */
export async function hold(tx: Queryable, cents: number, a: ChargeAttribution): Promise<boolean> {
  if (cents === 0) return true;
  // The take and its ledger row in one statement: a job's creation waits on one round trip less.
  const { rowCount } = await tx.query(
    `WITH taken AS (
       UPDATE teams SET balance_cents = balance_cents - $2 WHERE id = $1 AND balance_cents >= $2 RETURNING balance_cents
     )
     INSERT INTO credit_ledger (team_id, delta_cents, balance_after_cents, kind, person_id, api_key_id, source, tool, model, folder_id, job_id, job_status)
     SELECT $1, -$2, taken.balance_cents, 'hold', $3, $4, $5, $6, $7, $8, $9, $10 FROM taken`,
    [a.teamId, cents, a.personId, a.apiKeyId, a.source, a.tool, a.model, a.folderId, a.jobId, a.jobStatus],
  );
  return rowCount === 1;
}

/** Gives a hold back (failed or cancelled job). */
export async function release(tx: Queryable, heldCents: number, a: ChargeAttribution): Promise<void> {
  if (heldCents === 0) return;
  const { rows } = await tx.query<{ balance_cents: number }>(
    'UPDATE teams SET balance_cents = balance_cents + $2 WHERE id = $1 RETURNING balance_cents',
    [a.teamId, heldCents],
  );
  await writeRow(tx, 'release', heldCents, rows[0]!.balance_cents, a);
}

/**
 * Settles a completed job: the hold comes back (`release`) and the actual cost is charged (`settle`).
 * A cost above hold + balance is capped there, so the balance never goes below zero. Returns the
 * amount charged.
 */
export async function settle(
  tx: Queryable,
  heldCents: number,
  actualCents: number,
  a: ChargeAttribution,
): Promise<number> {
  const { rows } = await tx.query<{ balance_cents: number }>(
    'UPDATE teams SET balance_cents = balance_cents + $2 WHERE id = $1 RETURNING balance_cents',
    [a.teamId, heldCents],
  );
  let balance = rows[0]!.balance_cents;
  if (heldCents > 0) await writeRow(tx, 'release', heldCents, balance, a);
  const charged = Math.min(actualCents, balance);
  if (charged > 0) {
    const after = await tx.query<{ balance_cents: number }>(
      'UPDATE teams SET balance_cents = balance_cents - $2 WHERE id = $1 RETURNING balance_cents',
      [a.teamId, charged],
    );
    balance = after.rows[0]!.balance_cents;
  }
  await writeRow(tx, 'settle', -charged, balance, a);
  return charged;
}
