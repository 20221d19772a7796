import { queryOptions } from '@tanstack/react-query';
import { api } from '../api/client.ts';

export const toolKeys = {
  all: ['tools'] as const,
};

/** The tools (capabilities) the server offers. */
export function toolsQueryOptions() {
  return queryOptions({
    queryKey: toolKeys.all,
    queryFn: () => api().listTools(),
    staleTime: 5 * 60_000,
  });
}
