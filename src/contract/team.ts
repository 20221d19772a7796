import { z } from 'zod';
import { TeamRole } from './account.ts';
import { PersonEntry } from './api-keys.ts';
import { Email, Timestamp, Uuid } from './common.ts';
import { defineEndpoint } from './endpoint.ts';

/** A member of the team the call acts for (person entry of spec 2.11 plus the role). */
export const TeamMember = PersonEntry.extend({
  role: TeamRole,
  joined_at: Timestamp,
}).meta({ id: 'TeamMember' });
export type TeamMember = z.infer<typeof TeamMember>;

/** Roles an invitation can give: owners are made by promotion, never by invitation. */
export const InvitableRole = z.enum(['manager', 'member']).meta({ id: 'InvitableRole' });

export const TeamInvitation = z
  .object({
    id: z.string().meta({ description: 'Invitation id, `inv_...`.' }),
    email: z.string(),
    role: InvitableRole,
    invited_by: PersonEntry.nullable(),
    created_at: Timestamp,
    expires_at: Timestamp,
  })
  .meta({ id: 'TeamInvitation' });

export const TeamMembers = z
  .object({
    data: z.array(TeamMember),
    invitations: z
      .array(TeamInvitation)
      .meta({ description: 'Pending invitations (for owners and managers).' }),
  })
  .meta({ id: 'TeamMembers' });

/** Act for another team the person belongs to (as `GET /me`). */
const TeamHeaders = z.object({
  'x-team-id': Uuid.optional().meta({ description: 'Act for another team the person belongs to.' }),
});

const MemberParams = z.object({ user_id: Uuid });

export const listTeamMembers = defineEndpoint({
  operationId: 'listTeamMembers',
  method: 'GET',
  path: '/v2/team/members',
  host: 'api',
  tag: 'Account',
  summary: 'Team members',
  description: 'Members of the team the call acts for, with roles, and the pending invitations.',
  auth: 'any',
  headers: TeamHeaders,
  responses: { 200: { description: 'Members and invitations.', schema: TeamMembers } },
  errors: [],
});

export const inviteTeamMember = defineEndpoint({
  operationId: 'inviteTeamMember',
  method: 'POST',
  path: '/v2/team/invitations',
  host: 'api',
  tag: 'Account',
  summary: 'Invite someone by email',
  description:
    'Owners and managers only. Sends an email; the person joins with the role on their next sign-in with that address. 409 `conflict` when they are already a member.',
  auth: 'session',
  headers: TeamHeaders,
  body: z
    .object({ email: Email, role: InvitableRole.default('member') })
    .meta({ id: 'InviteTeamMemberRequest' }),
  responses: { 201: { description: 'The invitation.', schema: TeamInvitation } },
  errors: ['forbidden', 'conflict', 'rate_limited'],
});

export const updateTeamMember = defineEndpoint({
  operationId: 'updateTeamMember',
  method: 'PATCH',
  path: '/v2/team/members/{user_id}',
  host: 'api',
  tag: 'Account',
  summary: "Change a member's role",
  description:
    'Owners change any role; managers change members and managers. 409 `conflict` when it would leave the team without an owner.',
  auth: 'session',
  headers: TeamHeaders,
  params: MemberParams,
  body: z.object({ role: TeamRole }).meta({ id: 'UpdateTeamMemberRequest' }),
  responses: { 200: { description: 'The member.', schema: TeamMember } },
  errors: ['not_found', 'forbidden', 'conflict'],
});

export const removeTeamMember = defineEndpoint({
  operationId: 'removeTeamMember',
  method: 'DELETE',
  path: '/v2/team/members/{user_id}',
  host: 'api',
  tag: 'Account',
  summary: 'Remove a member',
  description:
    'Owners and managers remove others; anyone may remove themselves. Keys they own in the team are revoked. 409 `conflict` for the last owner; a personal team cannot lose its owner.',
  auth: 'session',
  headers: TeamHeaders,
  params: MemberParams,
  responses: { 204: { description: 'Removed.' } },
  errors: ['not_found', 'forbidden', 'conflict'],
});

export const revokeTeamInvitation = defineEndpoint({
  operationId: 'revokeTeamInvitation',
  method: 'DELETE',
  path: '/v2/team/invitations/{id}',
  host: 'api',
  tag: 'Account',
  summary: 'Withdraw an invitation',
  description:
    'Owners and managers only. The address no longer joins at its next sign-in. 404 for an invitation that is not pending in this team.',
  auth: 'session',
  headers: TeamHeaders,
  params: z.object({ id: z.string().max(64) }),
  responses: { 204: { description: 'Withdrawn.' } },
  errors: ['not_found', 'forbidden'],
});
