import type { TopUp } from '../../../contract/billing.ts';

/**
 * How a team's owners get more credits on this server: the operator's top-up page (CREDITS_TOP_UP_URL,
 * `{team_id}` filled in, so the page knows whose credits to add), and always the command the operator
 * runs on the server (scripts/credits-command.ts), for a server without such a page.
 */
export function topUpFor(pageUrl: string | undefined, teamId: string): TopUp {
  return {
    url: pageUrl
      ? pageUrl.replaceAll('{team_id}', encodeURIComponent(teamId)).replaceAll('%7Bteam_id%7D', teamId)
      : null,
    command: `npm run credits -- grant ${teamId} <credits>`,
  };
}
