import { Spinner } from './spinner.tsx';

/** Shown while a route's data loads (after the router's pending delay, so fast loads show nothing). */
export function RoutePending() {
  return (
    <div role="status" className="flex items-center gap-2 py-16 text-sm text-zinc-600 dark:text-zinc-400">
      <Spinner />
      Loading…
    </div>
  );
}
