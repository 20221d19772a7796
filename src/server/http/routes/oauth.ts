import { decideOAuthConsent, getOAuthClient } from '../../../contract/oauth.ts';
import { findClient, issueCode } from '../../domain/identity/oauth.ts';
import { AppError } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { defineRoute } from '../define-route.ts';

/** The console's consent page for the MCP authorization flow (docs/mcp.md). */
export function oauthRoutes(s: Services) {
  async function clientOrNotFound(clientId: string) {
    const client = await findClient(s.db, clientId);
    if (!client) throw new AppError('not_found', 'This application is not registered here (any more).');
    return client;
  }

  return [
    defineRoute(getOAuthClient, async ({ params }) => clientOrNotFound(params.client_id)),

    defineRoute(decideOAuthConsent, async ({ auth, body }) => {
      const client = await clientOrNotFound(body.client_id);
      if (!client.redirect_uris.includes(body.redirect_uri)) {
        throw new AppError('invalid_request', 'redirect_uri is not one this application registered.');
      }
      const back = new URL(body.redirect_uri);
      if (body.state !== undefined) back.searchParams.set('state', body.state);
      if (body.decision === 'deny') {
        back.searchParams.set('error', 'access_denied');
        return { redirect_to: back.href };
      }
      // The team is checked as any other: a team the person is not a member of is refused.
      const { rows } = await s.db.query('SELECT 1 FROM memberships WHERE team_id = $1 AND person_id = $2', [
        body.team_id,
        auth.personId,
      ]);
      if (!rows[0] || !auth.personId)
        throw new AppError('forbidden', 'You can only connect an application to one of your teams.');
      const code = await issueCode(s.db, {
        clientId: client.client_id,
        personId: auth.personId,
        teamId: body.team_id,
        redirectUri: body.redirect_uri,
        codeChallenge: body.code_challenge,
        resource: body.resource ?? null,
      });
      back.searchParams.set('code', code);
      back.searchParams.set('iss', s.config.PUBLIC_URL.replace(/\/+$/, ''));
      return { redirect_to: back.href };
    }),
  ];
}
