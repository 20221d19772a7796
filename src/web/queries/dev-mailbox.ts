import { queryOptions } from '@tanstack/react-query';
import { ApiError } from '../../client/api-error.ts';
import { api } from '../api/client.ts';

export const devMailboxKeys = {
  all: ['dev-mailbox'] as const,
  to: (email: string) => ['dev-mailbox', email] as const,
};

/**
 * The messages the server would have mailed to `email`, newest first, or null when the server has
 * no dev mailbox (it answers 404 as soon as SMTP is configured, and other v2 servers lack it).
 */
export function devMailboxQueryOptions(email: string) {
  return queryOptions({
    queryKey: devMailboxKeys.to(email),
    queryFn: async () => {
      try {
        const { data } = await api().devMailbox({ query: { to: email } });
        return data;
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      }
    },
    retry: false,
    staleTime: 0,
  });
}
