import {
  createApiKey as createApiKeyEndpoint,
  listApiKeyReveals,
  listApiKeyShares,
  listApiKeys,
  removeApiKeyShare,
  revealApiKey,
  revokeApiKey,
  rotateApiKey,
  shareApiKey,
  updateApiKey,
} from '../../../contract/api-keys.ts';
import { transaction } from '../../db/pool.ts';
import { recordAuditEvent } from '../../domain/audit/record-audit-event.ts';
import { setKeySpendLimit } from '../../domain/budgets/key-spend-limit.ts';
import { createApiKey } from '../../domain/identity/api-keys.ts';
import type { AuthContext } from '../../domain/identity/auth-context.ts';
import { normaliseRestrictions, rotateKey, updateKey } from '../../domain/identity/key-edits.ts';
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

/** Rotations per person: a secret replaced more often than this is a script gone wrong. */
const ROTATE_RATE_LIMIT: RateLimitRule = { label: 'key rotations', limit: 30, windowSeconds: 3600 };

/** API keys: list, create, edit, rotate, revoke, reveal, shares and the reveal log. */
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
      // A service key belongs to the team: only those who manage the team's keys make one.
      const service = body.owner === 'team';
      if (service && auth.role !== 'owner' && auth.role !== 'manager') {
        throw new AppError('forbidden', "Only the team's owners and managers create service keys.");
      }
      const restrictions = normaliseRestrictions(s.catalog, body);
      await hit(s.db, bucketName('key-create', personId), CREATE_RATE_LIMIT);
      const origin = auditOrigin(c, auth, s.config.TRUST_PROXY);
      // The key, its spend limit and its audit entry in one transaction: no moment when the key works
      // without its limit, and no key without its entry.
      const created = await transaction(s.db, async (tx) => {
        const made = await createApiKey(tx, s.keys.encryption, {
          teamId: auth.teamId,
          personId: service ? null : personId,
          name: body.name,
          revealable: body.revealable,
          expiresAt: body.expires_at,
          restrictions,
          service,
          createdBy: personId,
        });
        if (body.spend_limit) await setKeySpendLimit(tx, auth.teamId, made.id, body.spend_limit);
        await recordAuditEvent(tx, {
          teamId: auth.teamId,
          action: 'api_key.created',
          origin,
          target: { type: 'api_key', id: made.id },
          details: {
            name: body.name,
            revealable: body.revealable,
            expires_at: body.expires_at,
            service,
            ...restrictions,
            spend_limit: body.spend_limit,
          },
        });
        return made;
      });
      const key = await findVisibleKey(s.db, personId, created.id);
      return reply(201, { api_key: created.secret, key: key.record });
    }),

    defineRoute(updateApiKey, async ({ auth, params, body, c }) =>
      updateKey(
        s.db,
        s.apiKeys,
        s.catalog,
        personOf(auth),
        params.id,
        body,
        auditOrigin(c, auth, s.config.TRUST_PROXY),
      ),
    ),

    defineRoute(rotateApiKey, async ({ auth, params, body, c }) => {
      const personId = personOf(auth);
      await hit(s.db, bucketName('key-rotate', personId), ROTATE_RATE_LIMIT);
      return rotateKey(
        s.db,
        s.apiKeys,
        s.keys.encryption,
        personId,
        params.id,
        body.grace_seconds,
        auditOrigin(c, auth, s.config.TRUST_PROXY),
      );
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
