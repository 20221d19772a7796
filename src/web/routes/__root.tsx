import type { QueryClient } from '@tanstack/react-query';
import { createRootRouteWithContext, Outlet } from '@tanstack/react-router';
import type { Auth } from '../auth/auth.ts';
import { NotFound } from '../components/not-found.tsx';
import { useDocumentTitle } from '../document-title.ts';

export interface RouterContext {
  queryClient: QueryClient;
  auth: Auth;
}

export const Route = createRootRouteWithContext<RouterContext>()({
  component: Root,
  notFoundComponent: NotFound,
});

function Root() {
  useDocumentTitle();
  return <Outlet />;
}
