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
import { clientAddress } from '../client-address.ts';
import { defineRoute, reply } from '../define-route.ts';
import { requestHeader } from '../request-header.ts';

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

    defineRoute(createApiKeyEndpoint, async ({ auth, body }) => {
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
      // The key and its spend limit in one transaction: no moment when the key works without its limit.
      const created = await transaction(s.db, async (tx) => {
        const key = await createApiKey(tx, s.keys.encryption, {
          teamId: auth.teamId,
          personId: service ? null : personId,
          name: body.name,
          revealable: body.revealable,
          expiresAt: body.expires_at,
          restrictions,
          service,
          createdBy: personId,
        });
        if (body.spend_limit) await setKeySpendLimit(tx, auth.teamId, key.id, body.spend_limit);
        return key;
      });
      const key = await findVisibleKey(s.db, personId, created.id);
      return reply(201, { api_key: created.secret, key: key.record });
    }),

    defineRoute(updateApiKey, async ({ auth, params, body }) =>
      updateKey(s.db, s.apiKeys, s.catalog, personOf(auth), params.id, body),
    ),

    defineRoute(rotateApiKey, async ({ auth, params, body }) => {
      const personId = personOf(auth);
      await hit(s.db, bucketName('key-rotate', personId), ROTATE_RATE_LIMIT);
      return rotateKey(s.db, s.apiKeys, s.keys.encryption, personId, params.id, body.grace_seconds);
    }),

    defineRoute(revokeApiKey, async ({ auth, params }) => {
      const personId = personOf(auth);
      requireManager(await findVisibleKey(s.db, personId, params.id), 'revoke it');
      evictKeys(s.apiKeys, await revokeKey(s.db, params.id));
      return (await findVisibleKey(s.db, personId, params.id)).record;
    }),

    defineRoute(revealApiKey, async ({ auth, params, c }) => {
      const api_key = await revealKey(s.db, s.keys.encryption, personOf(auth), params.id, {
        ipAddress: clientAddress(c, s.config.TRUST_PROXY),
        userAgent: requestHeader(c, 'user-agent') ?? null,
      });
      return { api_key };
    }),

    defineRoute(shareApiKey, async ({ auth, params, body }) =>
      shareKey(s.db, personOf(auth), params.id, body.emails),
    ),

    defineRoute(listApiKeyShares, async ({ auth, params }) => listShares(s.db, personOf(auth), params.id)),

    defineRoute(removeApiKeyShare, async ({ auth, params }) => {
      await removeShare(s.db, personOf(auth), params.id, params.user_id);
      return reply(204, undefined);
    }),

    defineRoute(listApiKeyReveals, async ({ auth, params, query }) =>
      listReveals(s.db, personOf(auth), params.id, query),
    ),
  ];
}
