import { z } from 'zod';
import { Uuid } from './common.ts';
import { defineEndpoint } from './endpoint.ts';

/*
 * The console's part of the MCP authorization flow (OAuth 2.1 with PKCE, docs/mcp.md): the consent page
 * reads who is asking and approves it for a team. The OAuth endpoints themselves (metadata, registration,
 * authorize, token) follow the OAuth specifications' own shapes and are outside this table.
 */

export const OAuthClientParams = z.object({ client_id: z.string().min(1).max(100) });

export const OAuthClientView = z
  .object({
    client_id: z.string(),
    client_name: z.string(),
    redirect_uris: z.array(z.string()),
    created_at: z.string(),
  })
  .meta({ id: 'OAuthClient' });
export type OAuthClientView = z.infer<typeof OAuthClientView>;

export const OAuthConsentRequest = z
  .object({
    client_id: z.string().min(1).max(100),
    redirect_uri: z.string().min(1).max(2000),
    code_challenge: z
      .string()
      .regex(/^[A-Za-z0-9._~-]{43,128}$/, { message: 'must be an S256 PKCE challenge' }),
    code_challenge_method: z.literal('S256'),
    state: z.string().max(2000).optional(),
    resource: z.string().max(2000).optional(),
    team_id: Uuid.meta({ description: 'The team the client will act for.' }),
    decision: z.enum(['allow', 'deny']),
  })
  .meta({ id: 'OAuthConsentRequest' });
export type OAuthConsentRequest = z.infer<typeof OAuthConsentRequest>;

export const OAuthConsentAnswer = z
  .object({
    redirect_to: z
      .string()
      .meta({ description: "The client's redirect URI with `code` (or `error=access_denied`) and `state`." }),
  })
  .meta({ id: 'OAuthConsentAnswer' });

export const getOAuthClient = defineEndpoint({
  operationId: 'getOAuthClient',
  method: 'GET',
  path: '/api/oauth/clients/{client_id}',
  host: 'app',
  tag: 'Account',
  summary: 'An MCP client asking for access',
  description: 'What the consent page shows: the name and redirect URIs the client registered.',
  auth: 'session',
  params: OAuthClientParams,
  responses: { 200: { description: 'The client.', schema: OAuthClientView } },
  errors: ['not_found'],
});

export const decideOAuthConsent = defineEndpoint({
  operationId: 'decideOAuthConsent',
  method: 'POST',
  path: '/api/oauth/consent',
  host: 'app',
  tag: 'Account',
  summary: 'Allow or deny an MCP client',
  description:
    "Allowing issues a one-time authorization code (10 minutes) bound to the PKCE challenge, the person and the chosen team; the token it is exchanged for is an API key of that team named after the client, listed and revocable on the Keys page. Denying answers the client's redirect with `error=access_denied`.",
  auth: 'session',
  body: OAuthConsentRequest,
  responses: { 200: { description: 'Where to send the browser.', schema: OAuthConsentAnswer } },
  errors: ['invalid_request', 'not_found', 'forbidden'],
  noStore: true,
});
