import type { QueryClient } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { setUnauthorizedHandler } from './api/client.ts';
import { auth, forgetCredentials } from './auth/auth.ts';
import { createAppRouter } from './router.tsx';

/** The console: its router at the current address, and what a refused credential does to it. */
export function createConsole(queryClient: QueryClient): ReactNode {
  const router = createAppRouter(queryClient);
  // The first page's code downloads while the console settles its team (routes/_app.tsx waits for /me
  // before any page loads), not after: the router would start a page's chunk only once that is done. A
  // chunk that fails here fails again in the router's own load, which shows it.
  for (const route of router.getMatchedRoutes(router.latestLocation.pathname)[0]) {
    void router.loadRouteChunk(route)?.catch(() => undefined);
  }

  // A 401 from any call means the credentials are gone (session expired or revoked, key deleted):
  // forget them and ask for a sign-in that comes back here. A 401 while signed out (a wrong code on
  // the sign-in page) belongs to the form that made the call.
  setUnauthorizedHandler(() => {
    const here = router.state.location;
    if (!auth.isAuthenticated() || here.pathname === '/sign-in') return;
    forgetCredentials({ refused: true });
    void router
      .navigate({ to: '/sign-in', search: { redirect: here.href, reason: 'expired' }, replace: true })
      .then(() => queryClient.clear());
  });

  return <RouterProvider router={router} />;
}
