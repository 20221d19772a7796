import { QueryClient } from '@tanstack/react-query';
import { ApiError } from '../client/api-error.ts';

const MAX_RETRIES = 2;

/** Retries only what may pass on a second try: network trouble and 5xx, not a refused request. */
function shouldRetry(failureCount: number, error: unknown): boolean {
  if (failureCount >= MAX_RETRIES) return false;
  if (error instanceof ApiError) return error.status === 0 || error.status >= 500;
  return false;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: 30_000, retry: shouldRetry },
      mutations: { retry: false },
    },
  });
}
