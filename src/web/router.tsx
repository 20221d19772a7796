import type { QueryClient } from '@tanstack/react-query';
import { createRouter } from '@tanstack/react-router';
import { auth } from './auth/auth.ts';
import { NotFound } from './components/not-found.tsx';
import { RouteError } from './components/route-error.tsx';
import { RoutePending } from './components/route-pending.tsx';
import { routeTree } from './route-tree.gen.ts';

export function createAppRouter(queryClient: QueryClient) {
  return createRouter({
    routeTree,
    context: { queryClient, auth },
    // Hovering a link starts its loader; with staleness left to the query cache (preload stale time
    // 0), the router always asks react-query, which answers from cache when data is fresh.
    defaultPreload: 'intent',
    defaultPreloadStaleTime: 0,
    defaultPendingComponent: RoutePending,
    defaultErrorComponent: RouteError,
    defaultNotFoundComponent: NotFound,
    scrollRestoration: true,
  });
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}
