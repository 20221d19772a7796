import { randomBytes } from 'node:crypto';
import type { SpendLimit } from '../../../contract/budgets.ts';
import type { Queryable } from '../../db/pool.ts';

/**
 * Sets (or, with null, removes) an API key's spend limit. It is kept as a hidden `cap` budget on the key
 * (`key_limit`), so a job's creation locks and counts it with the team's other caps in one query. Weeks
 * start on Monday, months on the 1st, in the team's time zone. Called by the key's creation and its edit;
 * the caller has checked that the key is the team's and that the person may change it.
 */
export async function setKeySpendLimit(
  q: Queryable,
  teamId: string,
  keyId: string,
  limit: SpendLimit | null,
): Promise<void> {
  if (limit === null) {
    await q.query('DELETE FROM budgets WHERE team_id = $1 AND scope_id = $2 AND key_limit', [teamId, keyId]);
    return;
  }
  await q.query(
    `INSERT INTO budgets (id, team_id, scope_type, scope_id, credits, period, reset_day, mode, thresholds, key_limit)
     VALUES ($1, $2, 'key', $3, $4, $5, 1, 'cap', '{}', true)
     ON CONFLICT (scope_id) WHERE key_limit
     DO UPDATE SET credits = EXCLUDED.credits, period = EXCLUDED.period, updated_at = now()`,
    [`bud_${randomBytes(12).toString('hex')}`, teamId, keyId, limit.credits, limit.period],
  );
}

/** SQL for a key row `k`'s spend limit as JSON (`{credits, period}`), or null. */
export const KEY_SPEND_LIMIT_SQL = `(SELECT json_build_object('credits', sl.credits, 'period', sl.period)
   FROM budgets sl WHERE sl.key_limit AND sl.scope_id = k.id AND sl.team_id = k.team_id)`;
