import type { Context, Hono } from 'hono';
import { cors } from 'hono/cors';
import { exchangeCode, findClient, OAuthRefusal, registerClient } from '../../domain/identity/oauth.ts';
import { bucketName, hit, type RateLimitRule } from '../../domain/rate-limit.ts';
import type { Services } from '../../services.ts';
import { auditRequestInfo } from '../audit-request.ts';
import { clientAddress } from '../client-address.ts';
import type { AppEnv } from '../env.ts';
import { respondJson } from '../respond.ts';
import { MCP_PATH, PROTECTED_RESOURCE_PATH } from './paths.ts';

/** New client registrations per address: a client registers once per install. */
const REGISTER_RATE_LIMIT: RateLimitRule = { label: 'client registrations', limit: 20, windowSeconds: 3600 };

function oauthError(c: Context<AppEnv>, status: number, error: string, description: string) {
  return respondJson(c, status, { error, error_description: description }, { 'cache-control': 'no-store' });
}

/**
 * The MCP authorization flow (the MCP specification's authorization section: OAuth 2.1 with PKCE): the
 * protected-resource and authorization-server metadata, dynamic client registration, `authorize` (which
 * hands over to the console's consent page, where the person signs in with their emailed code and
 * chooses a team) and `token`, which exchanges the code for an API key of that team.
 */
export function mountOAuth(app: Hono<AppEnv>, s: Services): void {
  const issuer = s.config.PUBLIC_URL.replace(/\/+$/, '');
  const resource = {
    resource: `${issuer}${MCP_PATH}`,
    authorization_servers: [issuer],
    bearer_methods_supported: ['header'],
    resource_name: 'Media Generation API',
    resource_documentation: `${issuer}/v2/openapi.json`,
  };
  const server = {
    issuer,
    authorization_endpoint: `${issuer}/oauth/authorize`,
    token_endpoint: `${issuer}/oauth/token`,
    registration_endpoint: `${issuer}/oauth/register`,
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['none'],
    authorization_response_iss_parameter_supported: true,
  };
  // Browser-based clients (the MCP Inspector) read these from another origin.
  const open = cors({
    origin: '*',
    allowMethods: ['GET', 'POST', 'OPTIONS'],
    allowHeaders: ['content-type', 'mcp-protocol-version'],
  });
  app.use('/.well-known/*', open);
  app.use('/oauth/register', open);
  app.use('/oauth/token', open);

  app.get(PROTECTED_RESOURCE_PATH, (c) => respondJson(c, 200, resource));
  app.get(`${PROTECTED_RESOURCE_PATH}${MCP_PATH}`, (c) => respondJson(c, 200, resource));
  app.get('/.well-known/oauth-authorization-server', (c) => respondJson(c, 200, server));

  app.post('/oauth/register', async (c) => {
    await hit(
      s.db,
      bucketName('oauth-register', clientAddress(c, s.config.TRUST_PROXY)),
      REGISTER_RATE_LIMIT,
    );
    let body: Record<string, unknown>;
    try {
      body = (await c.req.json()) as Record<string, unknown>;
    } catch {
      return oauthError(c, 400, 'invalid_client_metadata', 'Send the client metadata as a JSON object.');
    }
    try {
      const client = await registerClient(s.db, body ?? {});
      return respondJson(
        c,
        201,
        {
          client_id: client.client_id,
          client_id_issued_at: Math.floor(Date.parse(client.created_at) / 1000),
          client_name: client.client_name,
          redirect_uris: client.redirect_uris,
          grant_types: ['authorization_code'],
          response_types: ['code'],
          token_endpoint_auth_method: 'none',
        },
        { 'cache-control': 'no-store' },
      );
    } catch (error) {
      if (error instanceof OAuthRefusal) return oauthError(c, 400, error.error, error.message);
      throw error;
    }
  });

  // Checks what can be checked before a person sees anything, then hands over to the consent page. Until
  // the redirect URI is known good, errors are shown here, never sent to it (RFC 6749 4.1.2.1).
  app.get('/oauth/authorize', async (c) => {
    const q = c.req.query();
    const client = q.client_id ? await findClient(s.db, q.client_id) : null;
    if (!client) return oauthError(c, 400, 'invalid_client', 'Unknown client_id: register the client first.');
    if (!q.redirect_uri || !client.redirect_uris.includes(q.redirect_uri)) {
      return oauthError(c, 400, 'invalid_request', 'redirect_uri is not one this client registered.');
    }
    const back = new URL(q.redirect_uri);
    const fail = (error: string, description: string) => {
      back.searchParams.set('error', error);
      back.searchParams.set('error_description', description);
      if (q.state) back.searchParams.set('state', q.state);
      return c.redirect(back.href, 302);
    };
    if (q.response_type !== 'code') return fail('unsupported_response_type', 'Only response_type=code.');
    if (q.code_challenge_method !== 'S256' || !/^[A-Za-z0-9._~-]{43,128}$/.test(q.code_challenge ?? '')) {
      return fail('invalid_request', 'PKCE is required: code_challenge with code_challenge_method=S256.');
    }
    if (q.resource && q.resource !== resource.resource) {
      return fail('invalid_target', `This server grants access to ${resource.resource} only.`);
    }
    const consent = new URL(`${issuer}/oauth/consent`);
    for (const name of [
      'client_id',
      'redirect_uri',
      'code_challenge',
      'code_challenge_method',
      'state',
      'resource',
    ]) {
      if (q[name]) consent.searchParams.set(name, q[name]);
    }
    return c.redirect(consent.href, 302);
  });

  app.post('/oauth/token', async (c) => {
    const type = c.req.header('content-type') ?? '';
    const form = type.includes('application/json')
      ? new URLSearchParams((await c.req.json().catch(() => ({}))) as Record<string, string>)
      : new URLSearchParams(await c.req.text());
    if (form.get('grant_type') !== 'authorization_code') {
      return oauthError(c, 400, 'unsupported_grant_type', 'Only grant_type=authorization_code.');
    }
    const fields = ['code', 'client_id', 'redirect_uri', 'code_verifier'] as const;
    const missing = fields.filter((f) => !form.get(f));
    if (missing.length) return oauthError(c, 400, 'invalid_request', `Missing ${missing.join(', ')}.`);
    try {
      const token = await exchangeCode(
        s.db,
        s.keys.encryption,
        {
          code: form.get('code')!,
          clientId: form.get('client_id')!,
          redirectUri: form.get('redirect_uri')!,
          codeVerifier: form.get('code_verifier')!,
        },
        auditRequestInfo(c, s.config.TRUST_PROXY),
      );
      return respondJson(
        c,
        200,
        { access_token: token.accessToken, token_type: 'Bearer' },
        { 'cache-control': 'no-store', pragma: 'no-cache' },
      );
    } catch (error) {
      if (error instanceof OAuthRefusal) return oauthError(c, 400, error.error, error.message);
      throw error;
    }
  });
}
