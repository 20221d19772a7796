import { z } from 'zod';
import { SpendLimit } from './budgets.ts';
import { Email, PageQuery, pageOf, QueryBoolean, Timestamp, ToolKey, Uuid } from './common.ts';
import { defineEndpoint } from './endpoint.ts';
import { isIpOrCidr } from './ip-address.ts';
import { KeyId } from './jobs.ts';

/** Share limits (spec 4.11 and section 8). */
export const SHARE_EMAILS_MIN = 1;
export const SHARE_EMAILS_MAX = 20;
export const SHARE_EMAIL_MAX_CHARS = 254;
/** At most 50 people per key; a share that would pass it answers 422 `share_limit_reached`. */
export const SHARES_PER_KEY_MAX = 50;
export const API_KEY_NAME_MAX = 100;
/** Restricted keys (issue #31): list sizes and the largest limits a key may carry. */
export const KEY_ALLOWED_MODELS_MAX = 100;
export const KEY_ALLOWED_IPS_MAX = 100;
export const KEY_RATE_LIMIT_PER_MINUTE_MAX = 100_000;
export const KEY_MAX_CONCURRENT_JOBS_MAX = 1_000;
/** A rotated key's old secret stays valid for at most 7 days. */
export const KEY_ROTATION_GRACE_MAX_SECONDS = 7 * 24 * 3600;

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
/** An IPv4/IPv6 address or CIDR (`203.0.113.7`, `203.0.113.0/24`, `2001:db8::/32`). */
export const IpAllowEntry = z.string().trim().refine(isIpOrCidr, {
  error: 'Not an IPv4 or IPv6 address or CIDR (e.g. 203.0.113.0/24, 2001:db8::/32).',
});

/**
 * What a key may do; each null (or omitted at creation) means no restriction. Shared by the key record,
 * its creation and its edit. (`spend_limit`, a cap budget on the key, is beside them.)
 */
const restrictionFields = {
  allowed_tools: z.array(ToolKey).min(1).max(20).nullable().meta({
    description: 'The tools the key may run; anything else answers 403 `forbidden`. Null: every tool.',
  }),
  allowed_models: z
    .array(z.string().trim().min(1).max(200))
    .min(1)
    .max(KEY_ALLOWED_MODELS_MAX)
    .nullable()
    .meta({
      description:
        'The models the key may run (catalog ids; a pinned `<provider>:<model>` is stored as its model). A request naming no model must name one of these. Null: every model.',
    }),
  allowed_ips: z.array(IpAllowEntry).min(1).max(KEY_ALLOWED_IPS_MAX).nullable().meta({
    description:
      'Addresses and CIDRs (IPv4 or IPv6) the key may be used from; another answers 403 `forbidden`. Behind a proxy the address is the first `X-Forwarded-For` hop when the server trusts it (`TRUST_PROXY`). Null: anywhere.',
  }),
  rate_limit_per_minute: z.int().min(1).max(KEY_RATE_LIMIT_PER_MINUTE_MAX).nullable().meta({
    description:
      'Requests a minute with this key (every endpoint); past it, 429 `rate_limited` with `Retry-After`. Null: no key limit.',
  }),
  max_concurrent_jobs: z.int().min(1).max(KEY_MAX_CONCURRENT_JOBS_MAX).nullable().meta({
    description:
      "Jobs of this key queued or running at once; one more answers 429 `rate_limited` with `Retry-After`. A pipeline's steps count while they run. Null: no cap.",
  }),
};

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
    ...restrictionFields,
    read_only: z.boolean().meta({
      description:
        'When true the key may read jobs, files and analytics but create and change nothing (403 `forbidden`).',
    }),
    service: z.boolean().meta({
      description:
        'A team-owned service key: it belongs to no person (`owner` is null), survives the removal of the member who made it, and its runs are attributed to the key.',
    }),
    rotated_at: Timestamp.nullable().meta({ description: 'When the secret was last replaced.' }),
    previous_secret_expires_at: Timestamp.nullable().meta({
      description:
        'After a rotation, until when the replaced secret still works; null when it no longer does.',
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
    allowed_tools: restrictionFields.allowed_tools.default(null),
    allowed_models: restrictionFields.allowed_models.default(null),
    allowed_ips: restrictionFields.allowed_ips.default(null),
    read_only: z.boolean().default(false).meta({
      description: 'When true the key may read but create and change nothing.',
    }),
    rate_limit_per_minute: restrictionFields.rate_limit_per_minute.default(null),
    max_concurrent_jobs: restrictionFields.max_concurrent_jobs.default(null),
    owner: z.enum(['me', 'team']).default('me').meta({
      description:
        '`team` makes a service key that belongs to the team, not to the caller (owners and managers only; 403 `forbidden` otherwise). Default `me`.',
    }),
    spend_limit: SpendLimit.nullable().default(null).meta({
      description:
        "At most `credits` per `period` (weeks from Monday, months from the 1st, in the team's time zone); a job that would pass it answers 402 `spend_limit_exceeded`. Omitted or null: no limit.",
    }),
  })
  .meta({ id: 'CreateApiKeyRequest' });

/** A key's edit: only the fields sent change; null lifts a restriction (or an expiry). */
export const UpdateApiKeyRequest = z
  .object({
    name: z.string().trim().min(1).max(API_KEY_NAME_MAX).optional(),
    expires_at: Timestamp.nullable().optional(),
    allowed_tools: restrictionFields.allowed_tools.optional(),
    allowed_models: restrictionFields.allowed_models.optional(),
    allowed_ips: restrictionFields.allowed_ips.optional(),
    read_only: z.boolean().nullable().optional().meta({ description: 'Null is the same as false.' }),
    rate_limit_per_minute: restrictionFields.rate_limit_per_minute.optional(),
    max_concurrent_jobs: restrictionFields.max_concurrent_jobs.optional(),
    spend_limit: SpendLimit.nullable().optional().meta({
      description: 'A new spend limit, replacing the old one; null removes it.',
    }),
  })
  .meta({ id: 'UpdateApiKeyRequest' });

export const RotateApiKeyRequest = z
  .object({
    grace_seconds: z.int().min(0).max(KEY_ROTATION_GRACE_MAX_SECONDS).default(0).meta({
      description:
        'How long the replaced secret keeps working, 0 to 604800 (7 days). 0 (the default): it stops at once.',
    }),
  })
  .meta({ id: 'RotateApiKeyRequest' });

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
  description:
    'The answer holds the full key; it is never cached. Restrictions are optional (see the fields); `owner: "team"` makes a service key (owners and managers). A model not in the catalog, or a bad address, answers 422 naming the entry.',
  auth: 'session',
  body: CreateApiKeyRequest,
  responses: { 201: { description: 'The new key, with its secret.', schema: CreatedApiKey } },
  errors: ['forbidden', 'rate_limited'],
  noStore: true,
});

export const updateApiKey = defineEndpoint({
  operationId: 'updateApiKey',
  method: 'PATCH',
  path: '/v2/api-keys/{id}',
  host: 'api',
  tag: 'Account',
  summary: "Edit an API key's name, expiry and restrictions",
  description:
    "Only the fields sent change; null lifts that restriction. Takes effect on the key's very next request, in every process. Allowed for the key's owner and managers of the owning team. A model that is not in the catalog, or a bad address, answers 422 naming the entry. A revoked key cannot be edited (409 `conflict`).",
  auth: 'session',
  params: ApiKeyParams,
  body: UpdateApiKeyRequest,
  responses: { 200: { description: 'The key after the edit.', schema: ApiKey } },
  errors: ['not_found', 'forbidden', 'conflict'],
});

export const rotateApiKey = defineEndpoint({
  operationId: 'rotateApiKey',
  method: 'POST',
  path: '/v2/api-keys/{id}/rotate',
  host: 'api',
  tag: 'Account',
  summary: 'Replace the secret of an API key',
  description:
    "Issues a new secret, answered once as at creation (and revealable later if the key is). The old secret keeps working for `grace_seconds` (at most 7 days), then answers 401; a second rotation ends the first one's grace. The key keeps its id, restrictions, shares and history. Allowed for the key's owner and managers of the owning team. A revoked key cannot be rotated (409 `conflict`). Never cached.",
  auth: 'session',
  params: ApiKeyParams,
  body: RotateApiKeyRequest,
  responses: { 200: { description: 'The key with its new secret.', schema: CreatedApiKey } },
  errors: ['not_found', 'forbidden', 'conflict', 'rate_limited'],
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
