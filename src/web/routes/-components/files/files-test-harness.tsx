import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import {
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
  Outlet,
  RouterProvider,
} from '@tanstack/react-router';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';

/* Test support for the Files pieces: a memory router with the paths their links lead to. */

/** Renders `ui` at `/files/file_root`; `/files/$fileId`, `/jobs/$jobId` and `/playground` exist to follow links. */
export function renderWithFileRoutes(ui: ReactNode, url = '/files/file_root') {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  const root = createRootRoute({ component: Outlet });
  const file = createRoute({
    getParentRoute: () => root,
    path: '/files/$fileId',
    component: () => <>{ui}</>,
  });
  const files = createRoute({ getParentRoute: () => root, path: '/files', component: () => <>{ui}</> });
  const job = createRoute({ getParentRoute: () => root, path: '/jobs/$jobId', component: () => null });
  const playground = createRoute({ getParentRoute: () => root, path: '/playground', component: () => null });
  const router = createRouter({
    routeTree: root.addChildren([file, files, job, playground]),
    history: createMemoryHistory({ initialEntries: [url] }),
  });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { router, queryClient };
}
