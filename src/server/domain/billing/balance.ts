import type { Queryable } from '../../db/pool.ts';

/** A team's balance now, and what its unfinished jobs hold of it (holds are already deducted). */
export async function teamBalance(db: Queryable, teamId: string, asOf: Date) {
  const { rows } = await db.query<{ balance_cents: number; held_cents: number }>(
    `SELECT t.balance_cents,
            (SELECT coalesce(sum(held_cents), 0)::bigint FROM jobs
              WHERE team_id = t.id AND status IN ('queued', 'submitting', 'running')) AS held_cents
       FROM teams t WHERE t.id = $1`,
    [teamId],
  );
  const row = rows[0];
  return {
    balance_cents: Number(row?.balance_cents ?? 0),
    held_cents: Number(row?.held_cents ?? 0),
    as_of: asOf.toISOString(),
  };
}
