import {
  createApiKey as createApiKeyEndpoint,
  listApiKeyReveals,
  listApiKeyShares,
  listApiKeys,
  removeApiKeyShare,
  revealApiKey,
  revokeApiKey,
  shareApiKey,
} from '../../../contract/api-keys.ts';
import { transaction } from '../../db/pool.ts';
import { recordAuditEvent } from '../../domain/audit/record-audit-event.ts';
import { createApiKey } from '../../domain/identity/api-keys.ts';
import type { AuthContext } from '../../domain/identity/auth-context.ts';
import { findVisibleKey, listVisibleKeys, requireManager } from '../../domain/identity/key-records.ts';
import { listReveals, revealKey } from '../../domain/identity/key-reveals.ts';
import { evictKeys, revokeKey } from '../../domain/identity/key-revocation.ts';
import { listShares, removeShare, shareKey } from '../../domain/identity/key-shares.ts';
import { bucketName, hit, type RateLimitRule } from '../../domain/rate-limit.ts';
import { AppError } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { auditOrigin } from '../audit-request.ts';
import { defineRoute, reply } from '../define-route.ts';

/** New keys per person: plenty for real use, a brake on a runaway script. */
const CREATE_RATE_LIMIT: RateLimitRule = { label: 'new API keys', limit: 30, windowSeconds: 3600 };

/** Every key endpoint is for a signed-in person (auth mode `session`), so the person is known. */
function personOf(auth: AuthContext): string {
  if (!auth.personId) throw new AppError('unauthorized', 'Sign in to manage API keys.');
  return auth.personId;
}

/** API keys: list, create, revoke, reveal, shares and the reveal log. */
export function apiKeyRoutes(s: Services) {
  return [
    defineRoute(listApiKeys, async ({ auth, query }) => listVisibleKeys(s.db, personOf(auth), query)),

    defineRoute(createApiKeyEndpoint, async ({ auth, body, c }) => {
      const personId = personOf(auth);
      if (auth.membership !== 'member') {
        throw new AppError(
          'forbidden',
          'Only members of this team create its keys; a key is only shared with you.',
        );
      }
      await hit(s.db, bucketName('key-create', personId), CREATE_RATE_LIMIT);
      const created = await transaction(s.db, async (tx) => {
        const made = await createApiKey(tx, s.keys.encryption, {
          teamId: auth.teamId,
          personId,
          name: body.name,
          revealable: body.revealable,
          expiresAt: body.expires_at,
        });
        await recordAuditEvent(tx, {
          teamId: auth.teamId,
          action: 'api_key.created',
          origin: auditOrigin(c, auth, s.config.TRUST_PROXY),
          target: { type: 'api_key', id: made.id },
          details: { name: body.name, revealable: body.revealable, expires_at: body.expires_at },
        });
        return made;
      });
      const key = await findVisibleKey(s.db, personId, created.id);
      return reply(201, { api_key: created.secret, key: key.record });
    }),

    defineRoute(revokeApiKey, async ({ auth, params, c }) => {
      const personId = personOf(auth);
      const revoked = await transaction(s.db, async (tx) => {
        const key = await findVisibleKey(tx, personId, params.id);
        requireManager(key, 'revoke it');
        const ids = await revokeKey(tx, params.id);
        // Revoking a revoked key changes nothing, and is not an event.
        if (ids.length) {
          await recordAuditEvent(tx, {
            teamId: key.record.team_id,
            action: 'api_key.revoked',
            origin: auditOrigin(c, auth, s.config.TRUST_PROXY),
            target: { type: 'api_key', id: params.id },
            details: { name: key.record.name },
          });
        }
        return ids;
      });
      evictKeys(s.apiKeys, revoked);
      return (await findVisibleKey(s.db, personId, params.id)).record;
    }),

    defineRoute(revealApiKey, async ({ auth, params, c }) => {
      const api_key = await revealKey(
        s.db,
        s.keys.encryption,
        personOf(auth),
        params.id,
        auditOrigin(c, auth, s.config.TRUST_PROXY),
      );
      return { api_key };
    }),

    defineRoute(shareApiKey, async ({ auth, params, body, c }) =>
      shareKey(s.db, personOf(auth), params.id, body.emails, auditOrigin(c, auth, s.config.TRUST_PROXY)),
    ),

    defineRoute(listApiKeyShares, async ({ auth, params }) => listShares(s.db, personOf(auth), params.id)),

    defineRoute(removeApiKeyShare, async ({ auth, params, c }) => {
      await removeShare(
        s.db,
        personOf(auth),
        params.id,
        params.user_id,
        auditOrigin(c, auth, s.config.TRUST_PROXY),
      );
      return reply(204, undefined);
    }),

    defineRoute(listApiKeyReveals, async ({ auth, params, query }) =>
      listReveals(s.db, personOf(auth), params.id, query),
    ),
  ];
}
