import { budgetPeriod } from '../../../contract/budget-period.ts';
import { BUDGET_ALERT_EVENT_TYPE, type BudgetAlertEvent } from '../../../contract/budgets.ts';
import type { Services } from '../../services.ts';
import { describeSendError } from '../webhooks/deliveries.ts';
import { DEFAULT_WEBHOOK_RETRY_POLICY } from '../webhooks/retry-policy.ts';
import { webhookSigningSecrets } from '../webhooks/secrets.ts';
import { createWebhookSender, type WebhookSender } from '../webhooks/sender.ts';
import { newWebhookId, signedWebhookHeaders } from '../webhooks/signature.ts';
import { dispatchTeamEvent } from '../webhooks/team-events.ts';
import {
  attributionParams,
  BUDGET_APPLIES_SQL,
  type BudgetLimitRow,
  type SpendAttribution,
  spentIn,
} from './budget-spend.ts';

interface AlertBudgetRow extends BudgetLimitRow {
  thresholds: number[];
  alert_emails: string[];
  alert_webhook_url: string | null;
  now: Date;
}

/** Where one alert goes: mail recipients and the budget's own webhook (each optional). */
export interface BudgetAlertTargets {
  emails: string[];
  webhookUrl: string | null;
}

let sender: WebhookSender | null = null;

/**
 * THE one place a `budget.threshold_reached` event leaves the server: mailed to `targets.emails` and
 * POSTed, signed with the team's webhook secret (Standard Webhooks), to `targets.webhookUrl`. Each send
 * is tried once and its failure is logged, never thrown: an alert never fails a job. The team's webhook
 * endpoints subscribed to `budget.threshold_reached` get it too, queued, retried and logged as job events are.
 */
export async function emitBudgetAlert(
  s: Services,
  event: BudgetAlertEvent,
  targets: BudgetAlertTargets,
): Promise<void> {
  const d = event.data;
  const what = d.scope.type === 'team' ? 'The team' : `The ${d.scope.type} ${d.scope.id}`;
  const stop =
    d.mode === 'cap'
      ? 'At 100% new jobs are refused until the budget resets.'
      : 'Jobs keep running past the budget; this is an alert only.';
  const mail = {
    subject: `Budget ${d.threshold}% reached: ${d.spent} of ${d.credits} credits`,
    text: `${what} has spent ${d.spent} of its ${d.credits} credits this ${d.period} (${d.threshold}% threshold); ${d.remaining} left. The budget resets at ${d.resets_at}. ${stop}\n\nBudget: ${d.budget_id}`,
  };
  const sends: Array<Promise<unknown>> = targets.emails.map((to) =>
    s.mailer.send({ to, ...mail }).catch((error: unknown) => {
      s.log.warn('budget alert mail failed', { budget_id: d.budget_id, error: String(error) });
    }),
  );
  if (targets.webhookUrl) sends.push(sendAlertWebhook(s, event, targets.webhookUrl));
  sends.push(
    dispatchTeamEvent({ db: s.db, boss: s.boss }, d.team_id, BUDGET_ALERT_EVENT_TYPE, d).catch(
      (error: unknown) => {
        s.log.warn('budget alert to webhook endpoints failed', {
          budget_id: d.budget_id,
          error: String(error),
        });
      },
    ),
  );
  await Promise.all(sends);
}

async function sendAlertWebhook(s: Services, event: BudgetAlertEvent, url: string): Promise<void> {
  const body = JSON.stringify(event);
  const timeoutMs = DEFAULT_WEBHOOK_RETRY_POLICY.timeoutMs;
  try {
    const secrets = await webhookSigningSecrets(s.db, s.keys.encryption, event.data.team_id);
    sender ??= createWebhookSender(s.config);
    const { status } = await sender(
      url,
      signedWebhookHeaders(secrets, newWebhookId(), body),
      body,
      timeoutMs,
    );
    if (status < 200 || status >= 300) {
      s.log.warn('budget alert webhook refused', { budget_id: event.data.budget_id, status });
    }
  } catch (error) {
    s.log.warn('budget alert webhook failed', {
      budget_id: event.data.budget_id,
      error: describeSendError(error, timeoutMs),
    });
  }
}

/** The owners' and managers' addresses: who hears of a budget that names no one. */
async function managerEmails(s: Services, teamId: string): Promise<string[]> {
  const { rows } = await s.db.query<{ email: string }>(
    `SELECT p.email FROM memberships m JOIN persons p ON p.id = m.person_id
      WHERE m.team_id = $1 AND m.role IN ('owner', 'manager') ORDER BY p.email`,
    [teamId],
  );
  return rows.map((r) => r.email);
}

/**
 * Sends the alerts a job's spend made due: for every budget covering it, each threshold its spend this
 * period reached, once. The `budget_alerts` row is the "once": only the creation whose insert wins sends,
 * however many see the crossing together. Returns how many alerts went out.
 */
export async function checkBudgetAlerts(s: Services, a: SpendAttribution): Promise<number> {
  const { rows } = await s.db.query<AlertBudgetRow>(
    `SELECT b.id, b.team_id, b.scope_type, b.scope_id, b.credits, b.period, b.reset_day, b.mode, b.key_limit,
            b.thresholds, b.alert_emails, b.alert_webhook_url, t.timezone, now() AS now
       FROM budgets b JOIN teams t ON t.id = b.team_id
      WHERE NOT b.key_limit AND cardinality(b.thresholds) > 0 AND ${BUDGET_APPLIES_SQL}`,
    attributionParams(a),
  );
  let sent = 0;
  for (const row of rows) {
    const { start, end } = budgetPeriod(row.period, row.reset_day, row.timezone, row.now.getTime());
    const spent = await spentIn(s.db, row, start, end);
    const credits = Number(row.credits);
    const due = row.thresholds.filter((t) => spent * 100 >= credits * t).sort((x, y) => x - y);
    if (due.length === 0) continue;
    const { rows: claimed } = await s.db.query<{ threshold: number }>(
      `INSERT INTO budget_alerts (budget_id, period_start, threshold, spent)
       SELECT $1, $2, t, $4 FROM unnest($3::int[]) t
       ON CONFLICT DO NOTHING RETURNING threshold`,
      [row.id, start, due, spent],
    );
    if (claimed.length === 0) continue;
    const targets: BudgetAlertTargets = {
      emails: row.alert_emails.length ? row.alert_emails : await managerEmails(s, row.team_id),
      webhookUrl: row.alert_webhook_url,
    };
    // Each threshold crossed is its own alert, lowest first (one job may cross several).
    for (const threshold of claimed.map((c) => c.threshold).sort((x, y) => x - y)) {
      await emitBudgetAlert(
        s,
        {
          type: BUDGET_ALERT_EVENT_TYPE,
          timestamp: new Date().toISOString(),
          data: {
            team_id: row.team_id,
            budget_id: row.id,
            scope: { type: row.scope_type, id: row.scope_id },
            threshold,
            credits,
            spent,
            remaining: Math.max(0, credits - spent),
            mode: row.mode,
            period: row.period,
            period_start: start.toISOString(),
            resets_at: end.toISOString(),
          },
        },
        targets,
      );
      sent += 1;
    }
  }
  return sent;
}

/** Runs checkBudgetAlerts after the job's answer, logging (never throwing) what goes wrong. */
export function checkBudgetAlertsLater(s: Services, a: SpendAttribution): void {
  checkBudgetAlerts(s, a).catch((error: unknown) => {
    s.log.warn('budget alerts check failed', { team_id: a.teamId, error: String(error) });
  });
}
