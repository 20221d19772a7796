import fs from 'node:fs';
import type http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { serve } from '@hono/node-server';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, type TestApp } from '../../testing/test-app.ts';

/*
 * The MCP authorization flow end to end, with the SDK's own OAuth client: discovery from the 401,
 * dynamic registration, PKCE authorization through the console's consent (as its page calls it, signed
 * in with an emailed code), the token, a tool call, and revocation from the keys.
 */

const REDIRECT = 'http://127.0.0.1:53682/callback';

/** What a desktop agent keeps: its registration, its tokens, and the PKCE verifier of the flow under way. */
class AgentStore implements OAuthClientProvider {
  client: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = '';
  authorizationUrl: URL | undefined;
  get redirectUrl() {
    return REDIRECT;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Test Agent',
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(client: OAuthClientInformationMixed) {
    this.client = client;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

let t: TestApp;
let server: http.Server;
let origin: string;
let dataDir: string;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-oauth-'));
  let app: TestApp['app'] | undefined;
  server = serve({
    fetch: (request, env) => app!.fetch(request, env),
    port: 0,
    hostname: '127.0.0.1',
  }) as http.Server;
  await new Promise((resolve) => server.once('listening', resolve));
  origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  t = await createTestApp({ PUBLIC_URL: origin, DATA_DIR: dataDir, TRUST_PROXY: 'false' });
  app = t.app;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await t.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const transport = (store: AgentStore) =>
  new StreamableHTTPClientTransport(new URL('/mcp', origin), { authProvider: store });

describe('MCP authorization (OAuth 2.1 with PKCE)', () => {
  it('publishes the metadata a client discovers from the 401', async () => {
    const refused = await fetch(`${origin}/mcp`, { method: 'POST' });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain(
      `resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`,
    );
    const resource = await (await fetch(`${origin}/.well-known/oauth-protected-resource/mcp`)).json();
    expect(resource).toMatchObject({ resource: `${origin}/mcp`, authorization_servers: [origin] });
    const metadata = await (await fetch(`${origin}/.well-known/oauth-authorization-server`)).json();
    expect(metadata).toMatchObject({
      issuer: origin,
      registration_endpoint: `${origin}/oauth/register`,
      code_challenge_methods_supported: ['S256'],
    });
    expect((await fetch(`${origin}/.well-known/openid-configuration`)).status).toBe(404);
  });

  it('registers, authorizes with consent for a team, exchanges the code, calls a tool, and is revoked from the keys', async () => {
    const store = new AgentStore();
    const agent = new Client({ name: 'test-agent', version: '1.0.0' });
    const first = transport(store);
    await expect(agent.connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(store.client?.client_id).toMatch(/^mcpc_/);
    const authorize = store.authorizationUrl!;
    expect(authorize.origin + authorize.pathname).toBe(`${origin}/oauth/authorize`);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');

    // The browser: authorize hands over to the console's consent page with the request.
    const handover = await fetch(authorize, { redirect: 'manual' });
    expect(handover.status).toBe(302);
    const consentPage = new URL(handover.headers.get('location')!);
    expect(consentPage.pathname).toBe('/oauth/consent');
    const ask = Object.fromEntries(consentPage.searchParams);

    // The person signs in with the emailed code and approves it for their team, as the page does.
    const session = await signUp(t);
    const console = t.clientFor(session.access_token);
    const asking = await console.getOAuthClient({ params: { client_id: ask.client_id! } });
    expect(asking.client_name).toBe('Test Agent');
    const me = await console.getMe();
    const { redirect_to } = await console.decideOAuthConsent({
      body: {
        client_id: ask.client_id!,
        redirect_uri: ask.redirect_uri!,
        code_challenge: ask.code_challenge!,
        code_challenge_method: 'S256',
        state: ask.state,
        resource: ask.resource,
        team_id: me.team.id,
        decision: 'allow',
      },
    });
    const back = new URL(redirect_to);
    expect(back.origin + back.pathname).toBe(REDIRECT);
    expect(back.searchParams.get('state')).toBe(authorize.searchParams.get('state'));
    const code = back.searchParams.get('code')!;

    await first.finishAuth(code);
    expect(store.saved?.access_token).toMatch(/^mcsk_/);
    // A code is good once.
    await expect(first.finishAuth(code)).rejects.toThrow();

    const connected = new Client({ name: 'test-agent', version: '1.0.0' });
    await connected.connect(transport(store));
    const balance = await connected.callTool({ name: 'get_balance', arguments: {} });
    expect(balance.isError).toBeFalsy();
    expect(balance.structuredContent).toMatchObject({ balance_cents: session.balance_cents });
    await connected.close();

    // The token is a key of the team named after the client: the Keys page lists and revokes it.
    const keys = await console.listApiKeys({ query: { limit: 100 } as never });
    const token = keys.data.find((k) => k.name === 'MCP: Test Agent');
    expect(token).toBeDefined();
    await console.revokeApiKey({ params: { id: token!.id } });
    const after = new Client({ name: 'test-agent', version: '1.0.0' });
    await expect(after.connect(transport(store))).rejects.toBeInstanceOf(UnauthorizedError);
  });

  it('refuses a registration with a redirect that could run code or leave the machine unencrypted', async () => {
    for (const uri of ['javascript:alert(1)', 'http://evil.example/cb']) {
      const response = await fetch(`${origin}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ client_name: 'x', redirect_uris: [uri] }),
      });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: 'invalid_redirect_uri' });
    }
  });

  it('answers a denied consent with access_denied at the client', async () => {
    const registered = await (
      await fetch(`${origin}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ client_name: 'Declined', redirect_uris: [REDIRECT] }),
      })
    ).json();
    const session = await signUp(t);
    const console = t.clientFor(session.access_token);
    const me = await console.getMe();
    const { redirect_to } = await console.decideOAuthConsent({
      body: {
        client_id: registered.client_id,
        redirect_uri: REDIRECT,
        code_challenge: 'a'.repeat(43),
        code_challenge_method: 'S256',
        state: 's1',
        team_id: me.team.id,
        decision: 'deny',
      },
    });
    const back = new URL(redirect_to);
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('state')).toBe('s1');
    expect(back.searchParams.has('code')).toBe(false);
  });
});
