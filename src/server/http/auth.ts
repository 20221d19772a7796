import type { TeamRole } from '../../contract/account.ts';
import type { AuthMode } from '../../contract/endpoint.ts';
import type { Queryable } from '../db/pool.ts';
import { API_KEY_PREFIX } from '../domain/identity/api-key-format.ts';
import { type ApiKeyResolver, isExpired } from '../domain/identity/api-keys.ts';
import type { AuthContext } from '../domain/identity/auth-context.ts';
import { isRestricted, refuseAddress } from '../domain/identity/key-restrictions.ts';
import type { SessionService } from '../domain/identity/sessions.ts';
import { bucketName, hit } from '../domain/rate-limit.ts';
import { AppError } from '../errors.ts';

export interface Authenticator {
  authenticate(
    authorization: string | undefined,
    mode: AuthMode,
    teamHeader: string | undefined,
    options?: AuthenticateOptions,
  ): Promise<AuthContext | null>;
}

export interface AuthenticateOptions {
  sharedAccess?: boolean;
  /** The caller's address (client-address.ts), for a key with an address allow-list. */
  address?: () => string;
  /**
   * Whether this request counts against a key's requests-a-minute (default true). The MCP endpoint's own
   * calls to the routes do not: the agent's request to /mcp counted once.
   */
  countRequest?: boolean;
}

/**
 * Endpoints a person may call for a team where they are no member but a key is shared with them: their
 * analytics (scoped to themselves) and the key endpoints (which check each key themselves).
 */
export function acceptsSharedAccess(path: string): boolean {
  return path.startsWith('/v2/analytics/') || path === '/v2/api-keys' || path.startsWith('/v2/api-keys/');
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** The token of an `Authorization: Bearer <token>` header. */
export function bearerToken(authorization: string | undefined): string | undefined {
  return authorization?.match(BEARER)?.[1];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function unauthorized(message: string): AppError {
  return new AppError('unauthorized', message, {
    headers: { 'www-authenticate': 'Bearer realm="media-api"' },
  });
}

export function createAuthenticator(
  db: Queryable,
  keys: ApiKeyResolver,
  sessions: SessionService,
): Authenticator {
  async function roleIn(teamId: string, personId: string): Promise<TeamRole | null> {
    const { rows } = await db.query<{ role: TeamRole }>(
      'SELECT role FROM memberships WHERE team_id = $1 AND person_id = $2',
      [teamId, personId],
    );
    return rows[0]?.role ?? null;
  }

  async function sharedKeysIn(teamId: string, personId: string): Promise<string[]> {
    const { rows } = await db.query<{ id: string }>(
      `SELECT k.id FROM api_key_shares s JOIN api_keys k ON k.id = s.api_key_id
        WHERE k.team_id = $1 AND s.person_id = $2 ORDER BY k.id`,
      [teamId, personId],
    );
    return rows.map((r) => r.id);
  }

  async function sessionContext(
    token: string,
    teamHeader: string | undefined,
    sharedAccess: boolean,
  ): Promise<AuthContext | null> {
    const session = await sessions.verify(token);
    if (!session) return null;
    let teamId: string;
    let role: TeamRole | null;
    let sharedKeyIds: string[] = [];
    if (teamHeader) {
      // A team the person does not belong to is answered like an unknown one, unless the endpoint
      // accepts people with a key of that team shared with them.
      role = UUID.test(teamHeader) ? await roleIn(teamHeader, session.personId) : null;
      if (!role && sharedAccess && UUID.test(teamHeader)) {
        sharedKeyIds = await sharedKeysIn(teamHeader, session.personId);
      }
      if (!role && !sharedKeyIds.length) throw new AppError('not_found', 'No such team.');
      teamId = teamHeader;
    } else {
      const { rows } = await db.query<{ team_id: string; role: TeamRole }>(
        `SELECT m.team_id, m.role FROM memberships m JOIN teams t ON t.id = m.team_id
          WHERE m.person_id = $1
          ORDER BY (t.personal_person_id = m.person_id) IS TRUE DESC, m.created_at, t.created_at LIMIT 1`,
        [session.personId],
      );
      if (!rows[0]) return null;
      teamId = rows[0].team_id;
      role = rows[0].role;
    }
    return {
      kind: 'session',
      personId: session.personId,
      teamId,
      role,
      membership: role ? 'member' : 'shared',
      sharedKeyIds,
      apiKeyId: null,
      sessionId: session.sessionId,
      source: 'app',
    };
  }

  return {
    async authenticate(authorization, mode, teamHeader, options = {}) {
      const token = bearerToken(authorization);
      if (!token) {
        if (mode === 'none' || mode === 'optional') return null;
        throw unauthorized('Missing Authorization header: send `Authorization: Bearer <API key>`.');
      }
      if (mode === 'none') return null;
      if (token.startsWith(API_KEY_PREFIX)) {
        if (mode === 'session') {
          throw unauthorized(
            'This endpoint needs an app session (sign in); an API key is not accepted here.',
          );
        }
        const principal = await keys.resolve(token);
        if (!principal) throw unauthorized('Invalid or revoked API key.');
        if (isExpired(principal)) {
          throw new AppError(
            'api_key_expired',
            `This API key expired at ${new Date(principal.expiresAt!).toISOString()}: create a new one.`,
            { headers: { 'www-authenticate': 'Bearer realm="media-api", error="invalid_token"' } },
          );
        }
        const restrictions = principal.restrictions;
        // The address is worked out only for a key that has a list (most have none).
        if (restrictions.allowedIps) refuseAddress(restrictions, options.address?.() ?? 'unknown');
        if (restrictions.ratePerMinute !== null && options.countRequest !== false) {
          // Shared by every process (the window lives in PostgreSQL), like the other rate limits.
          await hit(db, bucketName('key-requests', principal.apiKeyId), {
            label: 'requests with this API key',
            limit: restrictions.ratePerMinute,
            windowSeconds: 60,
          });
        }
        return {
          kind: 'api_key',
          personId: principal.personId,
          teamId: principal.teamId,
          role: principal.role,
          // A key acts for its own team, as the team's key (whoever holds it).
          membership: 'member',
          sharedKeyIds: [],
          apiKeyId: principal.apiKeyId,
          sessionId: null,
          source: 'api',
          ...(isRestricted(restrictions) ? { restrictions } : {}),
        };
      }
      const context =
        token.split('.').length === 3
          ? await sessionContext(token, teamHeader, options.sharedAccess === true)
          : null;
      if (!context) throw unauthorized('Invalid or expired session: sign in again.');
      return context;
    },
  };
}
