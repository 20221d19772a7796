import { type BudgetPeriod, budgetPeriod } from '../../../contract/budget-period.ts';
import type { Queryable } from '../../db/pool.ts';
import { AppError } from '../../errors.ts';

/** Who a job's money is attributed to: the columns a budget's scope is matched against. */
export interface SpendAttribution {
  teamId: string;
  personId: string | null;
  apiKeyId: string | null;
  folderId: string | null;
}

export interface BudgetLimitRow {
  id: string;
  team_id: string;
  scope_type: 'team' | 'member' | 'folder' | 'key';
  scope_id: string;
  credits: string | number;
  period: BudgetPeriod;
  reset_day: number;
  mode: 'alert' | 'cap';
  key_limit: boolean;
  timezone: string;
}

/**
 * SQL true for a budget row `b` that covers a job of the attribution in `$1` (team), `$2` (person),
 * `$3` (folder) and `$4` (key). The team's own budget's scope id is the team id.
 */
export const BUDGET_APPLIES_SQL = `b.team_id = $1 AND (
     b.scope_type = 'team'
  OR (b.scope_type = 'member' AND b.scope_id = $2::text)
  OR (b.scope_type = 'folder' AND b.scope_id = $3::text)
  OR (b.scope_type = 'key' AND b.scope_id = $4::text))`;

export const attributionParams = (a: SpendAttribution) => [a.teamId, a.personId, a.folderId, a.apiKeyId];

/**
 * What a budget's scope spent in a period: every ledger entry (hold, settle, release, refund) of the
 * jobs whose hold was taken in the period. A running job counts at its hold, a finished one at its
 * charge, a failed or cancelled one at nothing; a job counts in the period it started in, even when it
 * settles after the reset. Jobs that held nothing (cache hits, pipelines: their steps hold) count
 * nothing. The hold rows are found by the ledger's (team, kind, created_at) index, the rest by job id.
 */
export async function spentIn(
  q: Queryable,
  budget: { team_id: string; scope_type: string; scope_id: string },
  start: Date,
  end: Date,
): Promise<number> {
  const { rows } = await q.query<{ spent: string }>(
    `SELECT coalesce(-sum(l.delta_cents), 0)::bigint AS spent
       FROM credit_ledger l
      WHERE l.team_id = $1 AND l.kind IN ('hold', 'settle', 'release', 'refund')
        AND l.job_id IN (
          SELECT h.job_id FROM credit_ledger h
           WHERE h.team_id = $1 AND h.kind = 'hold' AND h.created_at >= $2 AND h.created_at < $3
             AND CASE $4::text WHEN 'team' THEN true
                               WHEN 'member' THEN h.person_id::text = $5
                               WHEN 'folder' THEN h.folder_id::text = $5
                               ELSE h.api_key_id = $5 END)`,
    [budget.team_id, start, end, budget.scope_type, budget.scope_id],
  );
  return Number(rows[0]?.spent ?? 0);
}

/** What the 402 says about a limit a job would pass. */
function exceeded(row: BudgetLimitRow, required: number, spent: number, resetsAt: Date): AppError {
  const limit = Number(row.credits);
  const remaining = Math.max(0, limit - spent);
  const what = row.key_limit
    ? "This API key's spend limit"
    : `The ${row.scope_type === 'team' ? 'team' : row.scope_type}'s budget ${row.id}`;
  const per = { day: 'a day', week: 'a week', month: 'a month' }[row.period];
  return new AppError(
    'spend_limit_exceeded',
    `${what} is ${limit} credits ${per}: ${remaining} ${remaining === 1 ? 'credit is' : 'credits are'} left until it resets at ${resetsAt.toISOString()}, and this job needs ${required}.`,
    {
      details: {
        remaining,
        resets_at: resetsAt.toISOString(),
        limit,
        period: row.period,
        required,
        budget_id: row.key_limit ? null : row.id,
        scope: { type: row.scope_type, id: row.scope_id },
      },
    },
  );
}

/**
 * Checks a job's hold of `cents` against every hard cap that covers it (the key's spend limit and `cap`
 * budgets), in the job's own transaction and before its hold: the cap rows are locked in id order, so
 * concurrent jobs under one cap take turns and each reads what the ones before it held. A team without
 * caps pays one indexed query. Throws 402 `spend_limit_exceeded` (the key's limit named first).
 */
export async function enforceSpendCaps(tx: Queryable, a: SpendAttribution, cents: number): Promise<void> {
  if (cents <= 0) return;
  const { rows } = await tx.query<BudgetLimitRow & { now: Date }>(
    `SELECT b.id, b.team_id, b.scope_type, b.scope_id, b.credits, b.period, b.reset_day, b.mode, b.key_limit,
            t.timezone, now() AS now
       FROM budgets b JOIN teams t ON t.id = b.team_id
      WHERE b.mode = 'cap' AND ${BUDGET_APPLIES_SQL}
      ORDER BY b.id
        FOR UPDATE OF b`,
    attributionParams(a),
  );
  if (rows.length === 0) return;
  const refusals: AppError[] = [];
  for (const row of rows) {
    // The transaction's clock, the one the hold's ledger row is stamped with.
    const { start, end } = budgetPeriod(row.period, row.reset_day, row.timezone, row.now.getTime());
    const spent = await spentIn(tx, row, start, end);
    if (spent + cents > Number(row.credits)) {
      const error = exceeded(row, cents, spent, end);
      if (row.key_limit) throw error;
      refusals.push(error);
    }
  }
  if (refusals[0]) throw refusals[0];
}
