import { createHash, randomBytes } from 'node:crypto';
import type { OAuthClientView } from '../../../contract/oauth.ts';
import { type Db, type Queryable, transaction } from '../../db/pool.ts';
import { type AuditRequestInfo, recordAuditEvent } from '../audit/record-audit-event.ts';
import { createApiKey } from './api-keys.ts';

/** How long an authorization code can be exchanged (OAuth 2.1 recommends minutes). */
export const CODE_TTL_SECONDS = 600;
const CLIENT_NAME_MAX = 80;
const REDIRECT_URIS_MAX = 10;

export class OAuthRefusal extends Error {
  constructor(
    /** The OAuth error code (RFC 6749 section 5.2, RFC 7591 section 3.2.2). */
    readonly error: string,
    message: string,
  ) {
    super(message);
  }
}

const sha256 = (text: string) => createHash('sha256').update(text).digest();

/**
 * Where a client may send the browser back: https anywhere, http only to this machine (native apps listen
 * on a loopback port, RFC 8252), or an app's own scheme (`cursor://…`); never a scheme that runs code.
 */
export function redirectUriAllowed(uri: string): boolean {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return false;
  }
  if (url.hash) return false;
  if (url.protocol === 'https:') return true;
  if (url.protocol === 'http:') return ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  return (
    /^[a-z][a-z0-9+.-]*:$/.test(url.protocol) &&
    !['javascript:', 'data:', 'file:', 'vbscript:', 'blob:'].includes(url.protocol)
  );
}

export async function registerClient(
  db: Queryable,
  request: { redirect_uris?: unknown; client_name?: unknown },
): Promise<OAuthClientView> {
  const uris = request.redirect_uris;
  if (!Array.isArray(uris) || uris.length === 0 || uris.length > REDIRECT_URIS_MAX) {
    throw new OAuthRefusal('invalid_redirect_uri', `redirect_uris must list 1 to ${REDIRECT_URIS_MAX} URIs.`);
  }
  for (const uri of uris) {
    if (typeof uri !== 'string' || uri.length > 2000 || !redirectUriAllowed(uri)) {
      throw new OAuthRefusal(
        'invalid_redirect_uri',
        `Redirect URI not allowed: ${String(uri).slice(0, 200)}. Use https, http on localhost, or an app scheme.`,
      );
    }
  }
  const name =
    typeof request.client_name === 'string' && request.client_name.trim()
      ? request.client_name.trim().slice(0, CLIENT_NAME_MAX)
      : 'An MCP client';
  const id = `mcpc_${randomBytes(12).toString('hex')}`;
  const { rows } = await db.query<{ created_at: Date }>(
    'INSERT INTO oauth_clients (id, name, redirect_uris) VALUES ($1, $2, $3) RETURNING created_at',
    [id, name, uris],
  );
  return {
    client_id: id,
    client_name: name,
    redirect_uris: uris as string[],
    created_at: rows[0]!.created_at.toISOString(),
  };
}

export async function findClient(db: Queryable, clientId: string): Promise<OAuthClientView | null> {
  const { rows } = await db.query<{ id: string; name: string; redirect_uris: string[]; created_at: Date }>(
    'SELECT id, name, redirect_uris, created_at FROM oauth_clients WHERE id = $1',
    [clientId],
  );
  const row = rows[0];
  return row
    ? {
        client_id: row.id,
        client_name: row.name,
        redirect_uris: row.redirect_uris,
        created_at: row.created_at.toISOString(),
      }
    : null;
}

/** A one-time code for this person, team, client, redirect and PKCE challenge; only its hash is kept. */
export async function issueCode(
  db: Queryable,
  grant: {
    clientId: string;
    personId: string;
    teamId: string;
    redirectUri: string;
    codeChallenge: string;
    resource: string | null;
  },
): Promise<string> {
  const code = randomBytes(32).toString('base64url');
  await db.query('DELETE FROM oauth_codes WHERE expires_at < now()');
  await db.query(
    `INSERT INTO oauth_codes (code_hash, client_id, person_id, team_id, redirect_uri, code_challenge, resource, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, now() + make_interval(secs => $8))`,
    [
      sha256(code).toString('hex'),
      grant.clientId,
      grant.personId,
      grant.teamId,
      grant.redirectUri,
      grant.codeChallenge,
      grant.resource,
      CODE_TTL_SECONDS,
    ],
  );
  return code;
}

/**
 * Exchanges a code for a token (RFC 6749 4.1.3 with PKCE, RFC 7636): the code is spent by the first try,
 * right or wrong, so a stolen code cannot be guessed at. The token is a new API key of the consented team,
 * owned by the person who consented and named after the client, so the Keys page lists and revokes it.
 */
export async function exchangeCode(
  db: Db,
  encryptionKey: Buffer,
  request: { code: string; clientId: string; redirectUri: string; codeVerifier: string },
  from: AuditRequestInfo,
): Promise<{ accessToken: string; keyId: string }> {
  const { rows } = await db.query<{
    client_id: string;
    person_id: string;
    team_id: string;
    redirect_uri: string;
    code_challenge: string;
    name: string;
  }>(
    `UPDATE oauth_codes c SET used_at = now() FROM oauth_clients k
      WHERE c.code_hash = $1 AND c.used_at IS NULL AND c.expires_at > now() AND k.id = c.client_id
      RETURNING c.client_id, c.person_id, c.team_id, c.redirect_uri, c.code_challenge, k.name`,
    [sha256(request.code).toString('hex')],
  );
  const grant = rows[0];
  if (!grant) throw new OAuthRefusal('invalid_grant', 'The code is unknown, expired or already used.');
  if (grant.client_id !== request.clientId)
    throw new OAuthRefusal('invalid_grant', 'The code was issued to another client.');
  if (grant.redirect_uri !== request.redirectUri) {
    throw new OAuthRefusal('invalid_grant', 'redirect_uri differs from the one the code was issued for.');
  }
  if (sha256(request.codeVerifier).toString('base64url') !== grant.code_challenge) {
    throw new OAuthRefusal('invalid_grant', 'code_verifier does not match the code challenge.');
  }
  const member = await db.query('SELECT 1 FROM memberships WHERE team_id = $1 AND person_id = $2', [
    grant.team_id,
    grant.person_id,
  ]);
  if (!member.rows[0])
    throw new OAuthRefusal('invalid_grant', 'The person who consented has left that team.');
  const name = `MCP: ${grant.name}`.slice(0, 100);
  const key = await transaction(db, async (tx) => {
    const made = await createApiKey(tx, encryptionKey, {
      teamId: grant.team_id,
      personId: grant.person_id,
      name,
      revealable: false,
    });
    await recordAuditEvent(tx, {
      teamId: grant.team_id,
      action: 'api_key.created',
      origin: { actor: { type: 'person', personId: grant.person_id, apiKeyId: null }, request: from },
      target: { type: 'api_key', id: made.id },
      details: { name, revealable: false, via: 'mcp_oauth', client_id: grant.client_id },
    });
    return made;
  });
  return { accessToken: key.secret, keyId: key.id };
}
