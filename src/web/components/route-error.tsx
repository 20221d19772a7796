import { useQueryErrorResetBoundary } from '@tanstack/react-query';
import { type ErrorComponentProps, useRouter } from '@tanstack/react-router';
import { useEffect } from 'react';
import { ApiError } from '../../client/api-error.ts';
import { Button } from './button.tsx';

function describeError(error: unknown): { title: string; message: string; requestId: string | null } {
  if (error instanceof ApiError) {
    const title =
      error.status === 0
        ? 'The server could not be reached'
        : error.status >= 500
          ? 'The server had a problem'
          : 'The request was refused';
    return { title, message: error.message, requestId: error.requestId };
  }
  return {
    title: 'Something went wrong',
    message: error instanceof Error ? error.message : String(error),
    requestId: null,
  };
}

/** A route's error boundary: what failed, the request id to quote, and a retry that reloads the data. */
export function RouteError({ error }: ErrorComponentProps) {
  const router = useRouter();
  const queryErrorReset = useQueryErrorResetBoundary();
  // Suspense queries that failed stay failed until their boundary is reset.
  useEffect(() => {
    queryErrorReset.reset();
  }, [queryErrorReset]);
  const { title, message, requestId } = describeError(error);
  return (
    <div
      role="alert"
      className="rounded-xl border border-red-200 bg-white p-6 dark:border-red-900/60 dark:bg-zinc-900"
    >
      <h2 className="text-base font-semibold text-red-800 dark:text-red-300">{title}</h2>
      <p className="mt-1.5 text-sm text-zinc-700 dark:text-zinc-300">{message}</p>
      {requestId && (
        <p className="mt-2 text-xs text-zinc-600 dark:text-zinc-400">
          Request id <code className="font-mono select-all">{requestId}</code>
        </p>
      )}
      <Button variant="secondary" size="sm" className="mt-4" onClick={() => void router.invalidate()}>
        Try again
      </Button>
    </div>
  );
}
