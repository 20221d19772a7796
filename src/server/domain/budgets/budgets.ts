import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import { type BudgetPeriod, budgetForecast, budgetPeriod } from '../../../contract/budget-period.ts';
import {
  BUDGET_THRESHOLDS_DEFAULT,
  BUDGETS_PER_TEAM_MAX,
  type Budget,
  type CreateBudgetRequest,
  type UpdateBudgetRequest,
} from '../../../contract/budgets.ts';
import { type Db, type Queryable, transaction } from '../../db/pool.ts';
import { AppError } from '../../errors.ts';
import { type AuditOrigin, recordAuditEvent } from '../audit/record-audit-event.ts';
import { type FolderViewer, folderSeenSql, seesEveryFolder } from '../folders/folder-visibility.ts';
import { spentIn } from './budget-spend.ts';

interface BudgetRow {
  id: string;
  team_id: string;
  scope_type: Budget['scope']['type'];
  scope_id: string;
  scope_name: string | null;
  credits: string;
  period: BudgetPeriod;
  reset_day: number;
  mode: Budget['mode'];
  thresholds: number[];
  alert_emails: string[];
  alert_webhook_url: string | null;
  timezone: string;
  created_at: Date;
  updated_at: Date;
  now: Date;
}

/** Who reads or changes budgets: owners and managers change them, every member reads them. */
export interface BudgetActor extends FolderViewer {
  personId: string | null;
}

export function requireBudgetManager(actor: BudgetActor, doing: string): void {
  if (actor.role !== 'owner' && actor.role !== 'manager') {
    throw new AppError('forbidden', `Only owners and managers of the team can ${doing}.`);
  }
}

/**
 * The budgets the actor reads (key spend limits are the keys', not listed here), with the name of what
 * each covers. A budget on a private folder is seen by those who see the folder.
 */
const BUDGET_SELECT = `
SELECT b.id, b.team_id, b.scope_type, b.scope_id, b.credits, b.period, b.reset_day, b.mode, b.thresholds,
       b.alert_emails, b.alert_webhook_url, b.created_at, b.updated_at, t.timezone, now() AS now,
       CASE b.scope_type WHEN 'team' THEN t.name
                         WHEN 'member' THEN (SELECT coalesce(p.display_name, p.email) FROM persons p WHERE p.id::text = b.scope_id)
                         WHEN 'folder' THEN w.name
                         ELSE (SELECT k.name FROM api_keys k WHERE k.id = b.scope_id) END AS scope_name
  FROM budgets b
  JOIN teams t ON t.id = b.team_id
  LEFT JOIN workspaces w ON b.scope_type = 'folder' AND w.id::text = b.scope_id
 WHERE b.team_id = $1 AND NOT b.key_limit
   AND (b.scope_type <> 'folder' OR $3::boolean OR ${folderSeenSql('w', '$2', 'false')})`;

async function toBudget(q: Queryable, row: BudgetRow, actor: BudgetActor): Promise<Budget> {
  const now = row.now.getTime();
  const { start, end } = budgetPeriod(row.period, row.reset_day, row.timezone, now);
  const [spent, alerts] = await Promise.all([
    spentIn(q, row, start, end),
    q.query<{ threshold: number }>(
      'SELECT threshold FROM budget_alerts WHERE budget_id = $1 AND period_start = $2 ORDER BY threshold',
      [row.id, start],
    ),
  ]);
  const credits = Number(row.credits);
  return {
    id: row.id,
    scope: { type: row.scope_type, id: row.scope_id },
    scope_name: row.scope_name,
    credits,
    period: row.period,
    reset_day: row.reset_day,
    mode: row.mode,
    thresholds: row.thresholds,
    alert_emails: row.alert_emails,
    // A receiver's URL often carries its own secret (a chat hook's token): managers only see it.
    alert_webhook_url: seesEveryFolder(actor) ? row.alert_webhook_url : null,
    timezone: row.timezone,
    spent,
    remaining: Math.max(0, credits - spent),
    period_start: start.toISOString(),
    resets_at: end.toISOString(),
    forecast: budgetForecast(spent, credits, start.getTime(), end.getTime(), now),
    alerts_sent: alerts.rows.map((r) => r.threshold),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

const viewerArgs = (actor: BudgetActor) => [actor.teamId, actor.personId, seesEveryFolder(actor)];

export async function listBudgets(db: Db, actor: BudgetActor): Promise<Budget[]> {
  const { rows } = await db.query<BudgetRow>(
    `${BUDGET_SELECT} ORDER BY b.created_at, b.id`,
    viewerArgs(actor),
  );
  return Promise.all(rows.map((row) => toBudget(db, row, actor)));
}

export async function getBudget(q: Queryable, actor: BudgetActor, id: string): Promise<Budget> {
  const { rows } = await q.query<BudgetRow>(`${BUDGET_SELECT} AND b.id = $4`, [...viewerArgs(actor), id]);
  if (!rows[0]) throw new AppError('not_found', `Budget \`${id}\` was not found.`);
  return toBudget(q, rows[0], actor);
}

export async function teamTimezone(q: Queryable, teamId: string): Promise<string> {
  const { rows } = await q.query<{ timezone: string }>('SELECT timezone FROM teams WHERE id = $1', [teamId]);
  return rows[0]?.timezone ?? 'UTC';
}

/** The scope must be of this team: the team itself, one of its members, folders or (unrevoked) keys. */
async function checkScope(q: Queryable, actor: BudgetActor, scope: Budget['scope']): Promise<void> {
  const isUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(scope.id);
  let found = false;
  if (scope.type === 'team') found = scope.id === actor.teamId;
  else if (scope.type === 'member' && isUuid) {
    found =
      (
        await q.query('SELECT 1 FROM memberships WHERE team_id = $1 AND person_id = $2', [
          actor.teamId,
          scope.id,
        ])
      ).rowCount === 1;
  } else if (scope.type === 'folder' && isUuid) {
    found =
      (await q.query('SELECT 1 FROM workspaces WHERE team_id = $1 AND id = $2', [actor.teamId, scope.id]))
        .rowCount === 1;
  } else if (scope.type === 'key') {
    found =
      (
        await q.query('SELECT 1 FROM api_keys WHERE team_id = $1 AND id = $2 AND revoked_at IS NULL', [
          actor.teamId,
          scope.id,
        ])
      ).rowCount === 1;
  }
  if (!found) {
    const what = { team: 'This team', member: 'No member', folder: 'No folder', key: 'No active key' }[
      scope.type
    ];
    throw new AppError(
      'not_found',
      scope.type === 'team'
        ? `A team budget's scope id is the team's own id (${actor.teamId}).`
        : `${what} \`${scope.id}\` was found in this team.`,
      { details: { field: 'scope.id' } },
    );
  }
}

/** Week budgets start on Monday and month budgets on the 1st unless told; a day has no reset day. */
function resetDayOf(period: BudgetPeriod, given: number | undefined): number {
  return period === 'day' ? 1 : (given ?? 1);
}

export async function createBudget(
  db: Db,
  actor: BudgetActor,
  body: z.output<typeof CreateBudgetRequest>,
  origin: AuditOrigin,
): Promise<Budget> {
  requireBudgetManager(actor, 'create budgets');
  return transaction(db, async (tx) => {
    await checkScope(tx, actor, body.scope);
    // The team row's lock makes the count and the insert one step, so two creations cannot pass the limit.
    await tx.query('SELECT 1 FROM teams WHERE id = $1 FOR UPDATE', [actor.teamId]);
    const { rows } = await tx.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM budgets WHERE team_id = $1 AND NOT key_limit',
      [actor.teamId],
    );
    if ((rows[0]?.count ?? 0) >= BUDGETS_PER_TEAM_MAX) {
      throw new AppError('conflict', `A team has at most ${BUDGETS_PER_TEAM_MAX} budgets; delete one first.`);
    }
    const id = `bud_${randomBytes(12).toString('hex')}`;
    await tx.query(
      `INSERT INTO budgets (id, team_id, scope_type, scope_id, credits, period, reset_day, mode, thresholds,
                            alert_emails, alert_webhook_url, created_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
      [
        id,
        actor.teamId,
        body.scope.type,
        body.scope.id,
        body.credits,
        body.period,
        resetDayOf(body.period, body.reset_day),
        body.mode,
        [...(body.thresholds ?? BUDGET_THRESHOLDS_DEFAULT)].sort((a, b) => a - b),
        body.alert_emails ?? [],
        body.alert_webhook_url ?? null,
        actor.personId,
      ],
    );
    const created = await getBudget(tx, actor, id);
    await recordBudgetEvent(tx, actor, origin, 'budget.created', created);
    return created;
  });
}

export async function updateBudget(
  db: Db,
  actor: BudgetActor,
  id: string,
  body: z.output<typeof UpdateBudgetRequest>,
  origin: AuditOrigin,
): Promise<Budget> {
  requireBudgetManager(actor, 'edit budgets');
  return transaction(db, async (tx) => {
    const current = await getBudget(tx, actor, id);
    const period = body.period ?? current.period;
    // A reset day given for another kind of period does not carry over (a 5th is no weekday).
    const resetDay =
      body.reset_day ?? (body.period && body.period !== current.period ? undefined : current.reset_day);
    if (period === 'week' && (resetDay ?? 1) > 7) {
      throw new AppError(
        'invalid_request',
        'Invalid request: reset_day: must be 1 to 7 for a weekly budget',
        {
          status: 422,
          details: {
            fields: [{ field: 'reset_day', message: 'must be 1 to 7 for a weekly budget', code: 'custom' }],
          },
        },
      );
    }
    await tx.query(
      `UPDATE budgets SET credits = $2, period = $3, reset_day = $4, mode = $5, thresholds = $6,
                          alert_emails = $7, alert_webhook_url = $8, updated_at = now()
        WHERE id = $1`,
      [
        id,
        body.credits ?? current.credits,
        period,
        resetDayOf(period, resetDay),
        body.mode ?? current.mode,
        [...(body.thresholds ?? current.thresholds)].sort((a, b) => a - b),
        body.alert_emails ?? current.alert_emails,
        body.alert_webhook_url === undefined ? current.alert_webhook_url : body.alert_webhook_url,
      ],
    );
    const updated = await getBudget(tx, actor, id);
    await recordBudgetEvent(tx, actor, origin, 'budget.edited', updated, current);
    return updated;
  });
}

export async function deleteBudget(
  db: Db,
  actor: BudgetActor,
  id: string,
  origin: AuditOrigin,
): Promise<void> {
  requireBudgetManager(actor, 'delete budgets');
  await transaction(db, async (tx) => {
    const current = await getBudget(tx, actor, id);
    await tx.query('DELETE FROM budgets WHERE id = $1 AND team_id = $2 AND NOT key_limit', [
      id,
      actor.teamId,
    ]);
    await recordBudgetEvent(tx, actor, origin, 'budget.deleted', current);
  });
}

/** What the audit log keeps of a budget: its terms, never its alert webhook's URL (it often carries a token). */
function budgetTerms(b: Budget): Record<string, unknown> {
  return {
    scope: b.scope,
    credits: b.credits,
    period: b.period,
    reset_day: b.reset_day,
    mode: b.mode,
    thresholds: b.thresholds,
    alert_webhook: b.alert_webhook_url !== null,
  };
}

async function recordBudgetEvent(
  q: Queryable,
  actor: BudgetActor,
  origin: AuditOrigin,
  action: 'budget.created' | 'budget.edited' | 'budget.deleted',
  budget: Budget,
  before?: Budget,
): Promise<void> {
  await recordAuditEvent(q, {
    teamId: actor.teamId,
    action,
    origin,
    target: { type: 'budget', id: budget.id },
    details: before ? { before: budgetTerms(before), after: budgetTerms(budget) } : budgetTerms(budget),
  });
}
