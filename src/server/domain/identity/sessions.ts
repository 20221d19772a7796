import { jwtVerify, SignJWT } from 'jose';
import type { Queryable } from '../../db/pool.ts';
import { TtlCache } from '../ttl-cache.ts';

const AUDIENCE = 'media-console';

export interface SessionPrincipal {
  sessionId: string;
  personId: string;
}

export interface IssuedSession {
  token: string;
  expiresAt: Date;
}

/**
 * Session JWTs (HS256) naming a row of `sessions`, so a session can be ended before it expires:
 * the signature is checked on every call, the row at most every few seconds per session.
 */
export class SessionService {
  private readonly live = new TtlCache<boolean>(5_000);

  constructor(
    private readonly db: Queryable,
    private readonly signingKey: Uint8Array,
    private readonly issuer: string,
    private readonly ttlHours: number,
  ) {}

  async issue(
    personId: string,
    meta: { userAgent: string | null; clientAddress: string | null },
  ): Promise<IssuedSession> {
    const expiresAt = new Date(Date.now() + this.ttlHours * 3600_000);
    const { rows } = await this.db.query<{ id: string }>(
      'INSERT INTO sessions (person_id, expires_at, user_agent, client_address) VALUES ($1, $2, $3, $4) RETURNING id',
      [personId, expiresAt, meta.userAgent?.slice(0, 300) ?? null, meta.clientAddress],
    );
    const sessionId = rows[0]!.id;
    const token = await new SignJWT({ sid: sessionId })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(personId)
      .setIssuer(this.issuer)
      .setAudience(AUDIENCE)
      .setIssuedAt()
      .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
      .sign(this.signingKey);
    return { token, expiresAt };
  }

  /** The session behind a token, or null when the token is forged, expired or its session was ended. */
  async verify(token: string): Promise<SessionPrincipal | null> {
    let sessionId: unknown;
    let personId: string | undefined;
    try {
      const { payload } = await jwtVerify(token, this.signingKey, {
        issuer: this.issuer,
        audience: AUDIENCE,
        algorithms: ['HS256'],
      });
      sessionId = payload.sid;
      personId = payload.sub;
    } catch {
      return null;
    }
    if (typeof sessionId !== 'string' || !personId) return null;
    let live = this.live.get(sessionId);
    if (live === undefined) {
      const { rowCount } = await this.db.query(
        'SELECT 1 FROM sessions WHERE id = $1 AND revoked_at IS NULL AND expires_at > now()',
        [sessionId],
      );
      live = rowCount === 1;
      this.live.set(sessionId, live);
    }
    return live ? { sessionId, personId } : null;
  }

  async revoke(sessionId: string): Promise<void> {
    await this.db.query('UPDATE sessions SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL', [
      sessionId,
    ]);
    this.live.set(sessionId, false);
  }
}
