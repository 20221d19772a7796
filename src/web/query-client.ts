import { QueryClient } from '@tanstack/react-query';
import { ApiError } from '../client/api-error.ts';
import { AUTO_RETRY_MS } from './api/auto-retry.ts';

const MAX_RETRIES = 2;
/** Waits between retries double from 1 s but never pass this: a server back up is noticed within seconds. */
export const MAX_RETRY_DELAY_MS = 3_000;

/** Network trouble and 5xx may pass on a second try; a refused request will not. */
export function isRetryable(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 0 || error.status >= 500);
}

function shouldRetry(failureCount: number, error: unknown): boolean {
  return failureCount < MAX_RETRIES && isRetryable(error);
}

/** 1 s, 2 s, then 3 s at most. React Query holds retries while the tab is hidden and resumes on focus. */
export function retryDelay(attempt: number): number {
  return Math.min(1_000 * 2 ** attempt, MAX_RETRY_DELAY_MS);
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: 30_000, retry: shouldRetry, retryDelay },
      mutations: { retry: false },
    },
  });
}

/**
 * Every query on screen that failed from an outage, with nothing to show, is tried again every few seconds while the tab is
 * visible, and at once when the person comes back (the window gains focus, the tab is shown, the
 * browser is online again), whatever its staleness settings: widgets and pages show the server's return
 * within seconds, without a reload. Returns the function that stops it.
 */
export function retryFailedOnReturn(
  queryClient: QueryClient,
  target: Window = window,
  every: number = AUTO_RETRY_MS,
): () => void {
  const retry = () => {
    if (target.document.visibilityState === 'hidden') return;
    void queryClient.refetchQueries(
      {
        type: 'active',
        // Only queries with nothing to show: one that failed in the background keeps its data on screen
        // (React Query refetches it on focus), and an infinite one would refetch every loaded page.
        predicate: (query) =>
          query.state.status === 'error' && query.state.data === undefined && isRetryable(query.state.error),
      },
      // A query already trying again keeps its attempt.
      { cancelRefetch: false },
    );
  };
  const timer = setInterval(retry, every);
  target.addEventListener('focus', retry);
  target.addEventListener('online', retry);
  target.document.addEventListener('visibilitychange', retry);
  return () => {
    clearInterval(timer);
    target.removeEventListener('focus', retry);
    target.removeEventListener('online', retry);
    target.document.removeEventListener('visibilitychange', retry);
  };
}
