import { useQueryErrorResetBoundary } from '@tanstack/react-query';
import { type ErrorComponentProps, useRouter } from '@tanstack/react-router';
import { useCallback, useEffect, useState } from 'react';
import { ApiError } from '../../client/api-error.ts';
import { useAutoRetry } from '../api/auto-retry.ts';
import { isChunkLoadError, reloadWhenServerAnswers } from '../api/chunk-failure.ts';
import { isRetryable } from '../query-client.ts';
import { Button } from './button.tsx';

interface Described {
  title: string;
  message: string;
  requestId: string | null;
  /** The failure may pass by itself (an outage): it is retried automatically. */
  passing: boolean;
}

function describeError(error: unknown): Described {
  if (isChunkLoadError(error)) {
    return {
      title: 'This page could not be loaded',
      message: 'Its code did not download: the server may be down or the network gone.',
      requestId: null,
      passing: true,
    };
  }
  if (error instanceof ApiError) {
    const title =
      error.status === 0
        ? 'The server could not be reached'
        : error.status >= 500
          ? 'The server had a problem'
          : 'The request was refused';
    return { title, message: error.message, requestId: error.requestId, passing: isRetryable(error) };
  }
  return {
    title: 'Something went wrong',
    message: error instanceof Error ? error.message : String(error),
    requestId: null,
    passing: false,
  };
}

/**
 * A route's error boundary: what failed and the request id to quote, inside the console's shell. An
 * outage is retried by itself every few seconds and at once when the person comes back to the tab;
 * "Retry now" does not wait.
 */
export function RouteError({ error }: ErrorComponentProps) {
  const router = useRouter();
  const queryErrorReset = useQueryErrorResetBoundary();
  const [retrying, setRetrying] = useState(false);
  // Suspense queries that failed stay failed until their boundary is reset.
  useEffect(() => {
    queryErrorReset.reset();
  }, [queryErrorReset]);
  const described = describeError(error);
  const chunk = isChunkLoadError(error);

  const retry = useCallback(async () => {
    if (retrying) return;
    setRetrying(true);
    try {
      if (chunk) await reloadWhenServerAnswers();
      else await router.invalidate();
    } finally {
      setRetrying(false);
    }
  }, [chunk, retrying, router]);
  useAutoRetry(() => void retry(), described.passing);

  return (
    <div
      role="alert"
      className="rounded-xl border border-red-200 bg-white p-6 dark:border-red-900/60 dark:bg-zinc-900"
    >
      <h2 className="text-base font-semibold text-red-800 dark:text-red-300">{described.title}</h2>
      <p className="mt-1.5 text-sm text-zinc-700 dark:text-zinc-300">{described.message}</p>
      {described.requestId && (
        <p className="mt-2 text-xs text-zinc-600 dark:text-zinc-400">
          Request id <code className="font-mono select-all">{described.requestId}</code>
        </p>
      )}
      {described.passing && (
        <p className="mt-2 text-xs text-zinc-600 dark:text-zinc-400">
          Trying again every few seconds, and as soon as you come back to this tab.
        </p>
      )}
      <Button variant="secondary" size="sm" className="mt-4" pending={retrying} onClick={() => void retry()}>
        Retry now
      </Button>
    </div>
  );
}
