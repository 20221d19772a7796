import { z } from 'zod';
import { SpendLimit } from './budgets.ts';
import { Email, PageQuery, pageOf, QueryBoolean, Timestamp, Uuid } from './common.ts';
import { defineEndpoint } from './endpoint.ts';
import { KeyId } from './jobs.ts';

/** Share limits (spec 4.11 and section 8). */
export const SHARE_EMAILS_MIN = 1;
export const SHARE_EMAILS_MAX = 20;
export const SHARE_EMAIL_MAX_CHARS = 254;
/** At most 50 people per key; a share that would pass it answers 422 `share_limit_reached`. */
export const SHARES_PER_KEY_MAX = 50;
export const API_KEY_NAME_MAX = 100;

/** Person entry (spec 2.11). `avatar_url` is null when the person has none. */
export const PersonEntry = z
  .object({
    user_id: Uuid,
    email: z.string(),
    display_name: z.string(),
    avatar_url: z.string().nullable(),
  })
  .meta({ id: 'PersonEntry' });
export type PersonEntry = z.infer<typeof PersonEntry>;

/** Share entry (spec 2.11): the person entry plus `shared_at`. */
export const ShareEntry = PersonEntry.extend({ shared_at: Timestamp }).meta({ id: 'ShareEntry' });
export type ShareEntry = z.infer<typeof ShareEntry>;

/** How the caller relates to a key: they own it, it belongs to a team they manage, or it is shared with them. */
export const API_KEY_RELATIONS = ['owned', 'team', 'shared'] as const;
export const ApiKeyRelation = z.enum(API_KEY_RELATIONS).meta({ id: 'ApiKeyRelation' });

/**
 * An API key record (ours; spec 2.12 does not show it). It never carries the secret: that is shown once at
 * creation, and again through `reveal` for keys created with `revealable: true`.
 */
export const ApiKey = z
  .object({
    id: KeyId.meta({ description: 'Key id, `key_...` (not the secret).' }),
    name: z.string(),
    start: z
      .string()
      .meta({ description: 'The first characters of the secret (product prefix included), for display.' }),
    last4: z.string().length(4).meta({ description: 'The last 4 characters of the secret.' }),
    revealable: z.boolean(),
    owner: PersonEntry.nullable().meta({
      description: 'Null for a key that belongs to the team, not to a person.',
    }),
    team_id: Uuid,
    relation: ApiKeyRelation,
    shared: z.boolean().meta({ description: 'True when the key is shared with at least one person.' }),
    share_count: z.int().min(0),
    created_at: Timestamp,
    last_used_at: Timestamp.nullable(),
    revoked_at: Timestamp.nullable(),
    expires_at: Timestamp.nullable().meta({
      description: 'When the key stops working (401 `api_key_expired`); null when it never expires.',
    }),
    spend_limit: SpendLimit.nullable().meta({
      description:
        "What the key may spend per day, week or month of the team's time zone (402 `spend_limit_exceeded` past it); null: no limit.",
    }),
  })
  .meta({ id: 'ApiKey' });
export type ApiKey = z.infer<typeof ApiKey>;

export const ApiKeyParams = z.object({ id: KeyId });

export const CreateApiKeyRequest = z
  .object({
    name: z.string().trim().min(1).max(API_KEY_NAME_MAX).meta({ description: '1 to 100 characters.' }),
    revealable: z.boolean().default(false).meta({
      description:
        'When true the key can be shown again later (`POST /api-keys/{id}/reveal`); otherwise only now.',
    }),
    expires_at: Timestamp.nullable().default(null).meta({
      description:
        'When the key stops working; from then on it answers 401 `api_key_expired`. Omitted or null: never.',
    }),
    spend_limit: SpendLimit.nullable().default(null).meta({
      description:
        "At most `credits` per `period` (weeks from Monday, months from the 1st, in the team's time zone); a job that would pass it answers 402 `spend_limit_exceeded`. Omitted or null: no limit.",
    }),
  })
  .meta({ id: 'CreateApiKeyRequest' });

export const CreatedApiKey = z
  .object({
    api_key: z.string().meta({ description: 'The full key. Shown once unless the key is revealable.' }),
    key: ApiKey,
  })
  .meta({ id: 'CreatedApiKey' });

export const ShareApiKeyRequest = z
  .object({
    emails: z
      .array(Email)
      .min(SHARE_EMAILS_MIN)
      .max(SHARE_EMAILS_MAX)
      .meta({ description: '1 to 20 addresses, each at most 254 characters.' }),
  })
  .meta({ id: 'ShareApiKeyRequest' });

export const ApiKeyShares = z
  .object({ owner: PersonEntry, shares: z.array(ShareEntry) })
  .meta({ id: 'ApiKeyShares' });

export const ShareApiKeyResponse = z
  .object({
    not_found: z
      .array(z.string())
      .meta({ description: 'Addresses with no account; nothing was shared with them.' }),
    owner: PersonEntry,
    shares: z.array(ShareEntry).meta({ description: 'Everyone the key is shared with now.' }),
  })
  .meta({ id: 'ShareApiKeyResponse' });

export const ApiKeyReveal = z
  .object({
    id: z.string(),
    api_key_id: KeyId,
    person: PersonEntry,
    revealed_at: Timestamp,
    ip_address: z.string().nullable(),
    user_agent: z.string().nullable(),
  })
  .meta({ id: 'ApiKeyReveal' });

export const listApiKeys = defineEndpoint({
  operationId: 'listApiKeys',
  method: 'GET',
  path: '/v2/api-keys',
  host: 'api',
  tag: 'Account',
  summary: 'List API keys',
  description:
    'Keys the caller owns, keys of teams they manage, and keys shared with them; `filter` narrows to one of those. Revoked keys only with `include_revoked=true`.',
  auth: 'session',
  query: PageQuery.extend({
    filter: ApiKeyRelation.optional(),
    include_revoked: QueryBoolean.default(false),
  }),
  responses: { 200: { description: 'A page of keys.', schema: pageOf(ApiKey).meta({ id: 'ApiKeyPage' }) } },
  errors: [],
});

export const createApiKey = defineEndpoint({
  operationId: 'createApiKey',
  method: 'POST',
  path: '/v2/api-keys',
  host: 'api',
  tag: 'Account',
  summary: 'Create an API key',
  description: 'The answer holds the full key; it is never cached.',
  auth: 'session',
  body: CreateApiKeyRequest,
  responses: { 201: { description: 'The new key, with its secret.', schema: CreatedApiKey } },
  errors: ['rate_limited'],
  noStore: true,
});

export const revokeApiKey = defineEndpoint({
  operationId: 'revokeApiKey',
  method: 'DELETE',
  path: '/v2/api-keys/{id}',
  host: 'api',
  tag: 'Account',
  summary: 'Revoke an API key',
  description:
    "The key stops working at once; its jobs and history stay. Allowed for the key's owner and managers of the owning team. Revoking a revoked key answers it unchanged.",
  auth: 'session',
  params: ApiKeyParams,
  responses: { 200: { description: 'The revoked key.', schema: ApiKey } },
  errors: ['not_found', 'forbidden'],
});

export const revealApiKey = defineEndpoint({
  operationId: 'revealApiKey',
  method: 'POST',
  path: '/v2/api-keys/{id}/reveal',
  host: 'api',
  tag: 'Account',
  summary: 'Show an API key again',
  description:
    "No body. Only for keys created with `revealable: true`; other keys were shown once at creation (409 `api_key_not_revealable`). Allowed for the key's owner, a manager of the owning team, and people the key is shared with. Every reveal is logged. Never cached.",
  auth: 'session',
  params: ApiKeyParams,
  responses: {
    200: {
      description: 'The full key.',
      schema: z.object({ api_key: z.string() }).meta({ id: 'RevealedApiKey' }),
    },
  },
  errors: ['not_found', 'forbidden', 'api_key_not_revealable', 'rate_limited'],
  noStore: true,
});

export const shareApiKey = defineEndpoint({
  operationId: 'shareApiKey',
  method: 'POST',
  path: '/v2/api-keys/{id}/shares',
  host: 'api',
  tag: 'Account',
  summary: 'Share an API key',
  description:
    "`emails`: 1 to 20, each at most 254 characters. Only the key's owner (or a manager of the owning team) may share. Emails with no account come back in `not_found` and nothing is shared with them. At most 50 people per key: a request that would pass it shares nothing and answers 422 `share_limit_reached`, naming `emails`. A revoked key cannot be shared (409 `conflict`). Rate limited per user.",
  auth: 'session',
  params: ApiKeyParams,
  body: ShareApiKeyRequest,
  responses: { 200: { description: 'The shares after the request.', schema: ShareApiKeyResponse } },
  errors: ['not_found', 'forbidden', 'conflict', 'share_limit_reached', 'rate_limited'],
});

export const listApiKeyShares = defineEndpoint({
  operationId: 'listApiKeyShares',
  method: 'GET',
  path: '/v2/api-keys/{id}/shares',
  host: 'api',
  tag: 'Account',
  summary: 'People an API key is shared with',
  auth: 'session',
  params: ApiKeyParams,
  responses: { 200: { description: 'Owner and shares.', schema: ApiKeyShares } },
  errors: ['not_found'],
});

export const removeApiKeyShare = defineEndpoint({
  operationId: 'removeApiKeyShare',
  method: 'DELETE',
  path: '/v2/api-keys/{id}/shares/{user_id}',
  host: 'api',
  tag: 'Account',
  summary: 'Stop sharing an API key with a person',
  description:
    'Allowed for the owner, a manager of the owning team, and the person themselves (leaving the share).',
  auth: 'session',
  params: z.object({ id: KeyId, user_id: Uuid }),
  responses: { 204: { description: 'No longer shared.' } },
  errors: ['not_found', 'forbidden'],
});

export const listApiKeyReveals = defineEndpoint({
  operationId: 'listApiKeyReveals',
  method: 'GET',
  path: '/v2/api-keys/{id}/reveals',
  host: 'api',
  tag: 'Account',
  summary: 'Reveal log of an API key',
  description:
    'Who showed the key again, and when; newest first. For the owner and managers of the owning team.',
  auth: 'session',
  params: ApiKeyParams,
  query: PageQuery,
  responses: {
    200: { description: 'A page of reveals.', schema: pageOf(ApiKeyReveal).meta({ id: 'ApiKeyRevealPage' }) },
  },
  errors: ['not_found', 'forbidden'],
});
