import type { Context } from 'hono';
import {
  inviteTeamMember,
  listTeamMembers,
  removeTeamMember,
  revokeTeamInvitation,
  updateTeamMember,
} from '../../../contract/team.ts';
import type { AuthContext } from '../../domain/identity/auth-context.ts';
import { invite, listPendingInvitations, withdrawInvitation } from '../../domain/identity/invitations.ts';
import {
  changeRole,
  isManagerRole,
  listMembers,
  removeMember,
  type TeamActor,
} from '../../domain/identity/team.ts';
import { AppError } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { auditOrigin } from '../audit-request.ts';
import { defineRoute, reply } from '../define-route.ts';

function actorOf(s: Services, c: Context, auth: AuthContext): TeamActor {
  if (!auth.personId) throw new AppError('forbidden', 'Team changes are made by a signed-in person.');
  return {
    teamId: auth.teamId,
    personId: auth.personId,
    origin: auditOrigin(c, auth, s.config.TRUST_PROXY),
  };
}

/** The team the call acts for (`X-Team-Id`, or the person's own team): members, roles and invitations. */
export function teamRoutes(s: Services) {
  return [
    defineRoute(listTeamMembers, async ({ auth }) => ({
      data: await listMembers(s.db, auth.teamId),
      invitations: isManagerRole(auth.role) ? await listPendingInvitations(s.db, auth.teamId) : [],
    })),

    defineRoute(inviteTeamMember, async ({ auth, body, c }) =>
      reply(
        201,
        await invite(s.db, s.mailer, actorOf(s, c, auth), {
          email: body.email,
          role: body.role,
          appUrl: s.config.PUBLIC_URL,
        }),
      ),
    ),

    defineRoute(revokeTeamInvitation, async ({ auth, params, c }) => {
      await withdrawInvitation(s.db, actorOf(s, c, auth), params.id);
      return reply(204, undefined);
    }),

    defineRoute(updateTeamMember, async ({ auth, params, body, c }) =>
      changeRole(s.db, s.apiKeys, actorOf(s, c, auth), params.user_id, body.role),
    ),

    defineRoute(removeTeamMember, async ({ auth, params, c }) => {
      await removeMember(s.db, s.apiKeys, actorOf(s, c, auth), params.user_id);
      return reply(204, undefined);
    }),
  ];
}
