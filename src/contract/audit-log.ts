import { z } from 'zod';
import { PersonEntry } from './api-keys.ts';
import { AUDIT_ACTIONS } from './audit-actions.ts';
import { PageQuery, pageOf, Timestamp, Uuid } from './common.ts';
import { defineEndpoint } from './endpoint.ts';
import { KeyId } from './jobs.ts';

/*
 * The audit log (issue #31): the team's security and money events, append-only, each entry chained to the
 * one before it by its hash. Read by owners and managers with `GET /v2/audit-log`.
 */

export const AuditActionName = z.enum(AUDIT_ACTIONS).meta({ id: 'AuditAction' });

/** What an entry is about. */
export const AUDIT_TARGET_TYPES = [
  'person',
  'api_key',
  'invitation',
  'folder',
  'template',
  'team',
  'job',
  'budget',
] as const;
export const AuditTargetType = z.enum(AUDIT_TARGET_TYPES).meta({ id: 'AuditTargetType' });
export type AuditTargetType = z.infer<typeof AuditTargetType>;

/**
 * Who did it: a person (in the console, or with their key: then `api_key` is set too), a key that
 * belongs to no person, the server operator (a command on the server), the server itself (sign-up credits), or
 * someone not signed in (a refused sign-in code).
 */
export const AUDIT_ACTOR_TYPES = ['person', 'api_key', 'operator', 'system', 'anonymous'] as const;
export const AuditActorType = z.enum(AUDIT_ACTOR_TYPES).meta({ id: 'AuditActorType' });
export type AuditActorType = z.infer<typeof AuditActorType>;

export const AuditEntry = z
  .object({
    id: z.string().meta({ description: 'Entry id, `aud_...`.' }),
    seq: z.int().min(1).meta({ description: "Position in the team's chain, from 1." }),
    team_id: Uuid,
    action: AuditActionName,
    occurred_at: Timestamp,
    actor: z.object({
      type: AuditActorType,
      person: PersonEntry.nullable(),
      api_key: z
        .object({ id: KeyId, name: z.string().nullable() })
        .nullable()
        .meta({ description: 'The key the call was made with (its name is null once it is unknown here).' }),
    }),
    target: z
      .object({
        type: AuditTargetType,
        id: z.string(),
        label: z
          .string()
          .nullable()
          .meta({ description: "A readable name for the target now (an email, a key's or folder's name)." }),
      })
      .nullable(),
    client_address: z.string().nullable().meta({ description: 'The caller’s address; null for commands.' }),
    user_agent: z.string().nullable(),
    details: z
      .record(z.string(), z.unknown())
      .meta({ description: 'What changed (a role from and to, credits, a decision). Never a secret.' }),
    prev_hash: z.string().nullable().meta({ description: 'The previous entry’s hash; null for the first.' }),
    hash: z.string().meta({ description: 'SHA-256 (hex) of this entry and `prev_hash`.' }),
  })
  .meta({ id: 'AuditEntry' });
export type AuditEntry = z.infer<typeof AuditEntry>;

/** `api_key.` (every action of a kind) or one exact action. */
const ACTION_FILTER = /^[a-z_]+\.([a-z_]+)?$/;

export const AuditLogQuery = PageQuery.extend({
  actor: z
    .union([Uuid, KeyId])
    .optional()
    .meta({ description: 'A person id (everything they did, with any key) or an API key id.' }),
  action: z
    .string()
    .max(64)
    .regex(ACTION_FILTER, {
      message: 'must be an action (api_key.revealed) or a prefix ending in a dot (api_key.)',
    })
    .optional()
    .meta({ description: 'One action (`api_key.revealed`), or every action of a kind (`api_key.`).' }),
  target: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .meta({ description: 'The id of the target (a key, person, folder...).' }),
  from: Timestamp.optional().meta({ description: 'Entries at or after this instant.' }),
  to: Timestamp.optional().meta({ description: 'Entries before this instant.' }),
  format: z.enum(['json', 'csv']).optional().meta({
    description:
      'Answer as `csv` (text/csv, one row per entry; the page`s next cursor in `X-Next-Cursor`); `Accept: text/csv` does the same.',
  }),
}).meta({ id: 'AuditLogQuery' });

const TeamHeaders = z.object({
  'x-team-id': Uuid.optional().meta({ description: 'Act for another team the person belongs to.' }),
});

export const listAuditLog = defineEndpoint({
  operationId: 'listAuditLog',
  method: 'GET',
  path: '/v2/audit-log',
  host: 'api',
  tag: 'Account',
  summary: 'Audit log',
  description:
    "The team's security and money events, newest first; paged by `cursor`. Owners and managers only (others: 403 `forbidden`). Each entry carries the hash of the one before it; `npm run audit -- verify` checks the chain.",
  auth: 'any',
  headers: TeamHeaders,
  query: AuditLogQuery,
  responses: {
    200: {
      description: 'A page of entries (or CSV).',
      schema: pageOf(AuditEntry).meta({ id: 'AuditLogPage' }),
    },
  },
  errors: ['forbidden'],
});
