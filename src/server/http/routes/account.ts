import { getBalanceV1, getMe } from '../../../contract/account.ts';
import { findPerson, findTeam, listMemberships } from '../../domain/identity/accounts.ts';
import { AppError } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { defineRoute } from '../define-route.ts';

export function accountRoutes(s: Services) {
  return [
    defineRoute(getMe, async ({ auth }) => {
      const team = await findTeam(s.db, auth.teamId);
      if (!team) throw new AppError('unauthorized', 'The team of this credential no longer exists.');
      const person = auth.personId ? await findPerson(s.db, auth.personId) : null;
      const teams = person ? await listMemberships(s.db, person.id) : [];
      const role = auth.role ?? 'member';
      return {
        person: person
          ? {
              id: person.id,
              email: person.email,
              display_name: person.display_name,
              avatar_url: person.avatar_url,
              created_at: person.created_at.toISOString(),
            }
          : null,
        team: { id: team.id, name: team.name, slug: team.slug, personal: team.personal, role },
        teams: teams.map((t) => ({
          id: t.id,
          name: t.name,
          slug: t.slug,
          personal: t.personal,
          role: t.role,
        })),
        role,
        balance_cents: team.balance_cents,
        auth: { kind: auth.kind, api_key_id: auth.apiKeyId },
      };
    }),

    defineRoute(getBalanceV1, async ({ auth }) => {
      const team = await findTeam(s.db, auth.teamId);
      if (!team) throw new AppError('unauthorized', 'The team of this credential no longer exists.');
      return { balance_cents: team.balance_cents };
    }),
  ];
}
