import { queryOptions } from '@tanstack/react-query';
import { api } from '../api/client.ts';

export const meKeys = {
  all: ['me'] as const,
};

/** The caller: person, acting team, teams, role and balance. */
export function meQueryOptions() {
  return queryOptions({
    queryKey: meKeys.all,
    queryFn: () => api().getMe(),
  });
}
