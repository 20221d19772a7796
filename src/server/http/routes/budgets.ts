import {
  createBudget as createBudgetEndpoint,
  deleteBudget as deleteBudgetEndpoint,
  getBudget as getBudgetEndpoint,
  getTeamSettings,
  listBudgets as listBudgetsEndpoint,
  updateBudget as updateBudgetEndpoint,
  updateTeamSettings,
} from '../../../contract/budgets.ts';
import {
  type BudgetActor,
  createBudget,
  deleteBudget,
  getBudget,
  listBudgets,
  requireBudgetManager,
  teamTimezone,
  updateBudget,
} from '../../domain/budgets/budgets.ts';
import type { AuthContext } from '../../domain/identity/auth-context.ts';
import type { CheckUrls } from '../../domain/jobs/check-input-urls.ts';
import type { Services } from '../../services.ts';
import { auditOrigin } from '../audit-request.ts';
import { defineRoute, reply } from '../define-route.ts';

const actorOf = (auth: AuthContext): BudgetActor => ({
  teamId: auth.teamId,
  personId: auth.personId,
  role: auth.role,
});

/** Budgets of the team the call acts for (read by members, changed by owners and managers), and its time zone. */
export function budgetRoutes(s: Services, checkUrls: CheckUrls) {
  // An alert's webhook follows the rules of a job's `webhook_url`: refused now rather than at the alert.
  const checkWebhook = async (url: string | null | undefined) => {
    if (url) await checkUrls([url], 'webhook');
  };
  return [
    defineRoute(listBudgetsEndpoint, async ({ auth }) => ({
      data: await listBudgets(s.db, actorOf(auth)),
      timezone: await teamTimezone(s.db, auth.teamId),
    })),

    defineRoute(createBudgetEndpoint, async ({ auth, body, c }) => {
      requireBudgetManager(actorOf(auth), 'create budgets');
      await checkWebhook(body.alert_webhook_url);
      return reply(
        201,
        await createBudget(s.db, actorOf(auth), body, auditOrigin(c, auth, s.config.TRUST_PROXY)),
      );
    }),

    defineRoute(getBudgetEndpoint, async ({ auth, params }) => getBudget(s.db, actorOf(auth), params.id)),

    defineRoute(updateBudgetEndpoint, async ({ auth, params, body, c }) => {
      requireBudgetManager(actorOf(auth), 'edit budgets');
      await checkWebhook(body.alert_webhook_url);
      return updateBudget(s.db, actorOf(auth), params.id, body, auditOrigin(c, auth, s.config.TRUST_PROXY));
    }),

    defineRoute(deleteBudgetEndpoint, async ({ auth, params, c }) => {
      await deleteBudget(s.db, actorOf(auth), params.id, auditOrigin(c, auth, s.config.TRUST_PROXY));
      return reply(204, undefined);
    }),

    defineRoute(getTeamSettings, async ({ auth }) => ({ timezone: await teamTimezone(s.db, auth.teamId) })),

    defineRoute(updateTeamSettings, async ({ auth, body }) => {
      requireBudgetManager(actorOf(auth), "change the team's time zone");
      await s.db.query('UPDATE teams SET timezone = $2 WHERE id = $1', [auth.teamId, body.timezone]);
      return { timezone: body.timezone };
    }),
  ];
}
