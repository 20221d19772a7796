import { queryOptions } from '@tanstack/react-query';
import { api } from '../api/client.ts';
import { teamScoped } from '../team/current-team.ts';

export const meKeys = {
  /** GET /me answers for the team the call acts for (role, balance): one entry per team. */
  get all() {
    return teamScoped(['me'] as const);
  },
};

/** The caller: person, acting team, teams, role and balance. */
export function meQueryOptions() {
  return queryOptions({
    queryKey: meKeys.all,
    queryFn: () => api().getMe(),
  });
}
