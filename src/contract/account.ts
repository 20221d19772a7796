import { z } from 'zod';
import { Cents, Timestamp, Uuid } from './common.ts';
import { defineEndpoint } from './endpoint.ts';

export const TEAM_ROLES = ['owner', 'manager', 'member'] as const;
export const TeamRole = z.enum(TEAM_ROLES).meta({ id: 'TeamRole' });
export type TeamRole = z.infer<typeof TeamRole>;

export const Person = z
  .object({
    id: Uuid,
    email: z.string(),
    display_name: z.string(),
    avatar_url: z.string().nullable(),
    created_at: Timestamp,
  })
  .meta({ id: 'Person' });

export const TeamMembership = z
  .object({
    id: Uuid,
    name: z.string(),
    slug: z.string(),
    personal: z.boolean(),
    role: TeamRole,
  })
  .meta({ id: 'TeamMembership' });

export const Me = z
  .object({
    person: Person.nullable().meta({ description: 'Null for a service account key with no person.' }),
    team: TeamMembership.meta({ description: 'The team this call acts for.' }),
    teams: z.array(TeamMembership).meta({
      description:
        "All the person's teams with their role: their own personal team first, then the others in the order they joined.",
    }),
    role: TeamRole,
    balance_cents: Cents,
    auth: z.object({
      kind: z.enum(['api_key', 'session']),
      api_key_id: z.string().nullable(),
    }),
  })
  .meta({ id: 'Me' });
export type Me = z.infer<typeof Me>;

export const getMe = defineEndpoint({
  operationId: 'getMe',
  method: 'GET',
  path: '/v2/me',
  host: 'api',
  tag: 'Account',
  summary: 'Who am I',
  description: 'The person, the team the call acts for, all their teams with roles, and the balance.',
  auth: 'any',
  headers: z.object({
    'x-team-id': Uuid.optional().meta({ description: 'Act for another team the person belongs to.' }),
  }),
  responses: { 200: { description: 'The caller.', schema: Me } },
  errors: [],
});

export const getBalanceV1 = defineEndpoint({
  operationId: 'getBalanceV1',
  method: 'GET',
  path: '/v1/balance',
  host: 'api',
  tag: 'Billing',
  summary: 'Balance (v1)',
  description: 'Legacy balance check (spec 5.7).',
  auth: 'any',
  responses: { 200: { description: 'The balance.', schema: z.object({ balance_cents: Cents }) } },
  errors: [],
});
