import { getBalance, listLedgerEntries } from '../../../contract/billing.ts';
import { teamBalance } from '../../domain/billing/balance.ts';
import { ledgerPage } from '../../domain/billing/ledger-page.ts';
import { topUpFor } from '../../domain/billing/top-up.ts';
import type { Services } from '../../services.ts';
import { defineRoute } from '../define-route.ts';

/** The team's balance and its ledger (api-extensions.md: Billing), for its members and its keys. */
export function billingRoutes(s: Services) {
  return [
    defineRoute(getBalance, async ({ auth }) => ({
      team_id: auth.teamId,
      ...(await teamBalance(s.db, auth.teamId, new Date())),
      top_up: topUpFor(s.config.CREDITS_TOP_UP_URL, auth.teamId),
    })),

    defineRoute(listLedgerEntries, async ({ auth, query }) => ledgerPage(s.db, auth, query)),
  ];
}
