import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import {
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
  Outlet,
  RouterProvider,
  useNavigate,
} from '@tanstack/react-router';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { JobFeedSearch, normalizeFilters } from '../../../queries/job-filters.ts';
import { json, stubFetch } from '../../../testing/fake-fetch.ts';
import { JobFilterBar } from './job-filter-bar.tsx';

const FOLDER = 'c0000000-0000-4000-8000-000000000001';

/** /jobs with a loader that waits until the test lets it finish, as a slow feed would. */
function renderBar(initial = '/jobs') {
  let release: () => void = () => {};
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const root = createRootRoute({ component: Outlet });
  const jobs = createRoute({
    getParentRoute: () => root,
    path: '/jobs',
    validateSearch: JobFeedSearch,
    loaderDeps: ({ search }) => normalizeFilters(search),
    loader: ({ deps }) =>
      Object.keys(deps).length === 0 ? undefined : new Promise<void>((resolve) => (release = resolve)),
    // The old page stays while the next one loads (no pending screen), as in the app.
    pendingMs: 60_000,
    component: function Page() {
      const navigate = useNavigate();
      return (
        <JobFilterBar
          catalog={[]}
          onChange={(patch) => void navigate({ to: '/jobs', search: (prev) => ({ ...prev, ...patch }) })}
          onClear={() => void navigate({ to: '/jobs', search: {} })}
        />
      );
    },
  });
  const router = createRouter({
    routeTree: root.addChildren([jobs]),
    history: createMemoryHistory({ initialEntries: [initial] }),
  });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { router, release: () => release() };
}

describe('the job filter bar', () => {
  it('follows the URL being navigated to while the filtered feed still loads', async () => {
    stubFetch({
      'GET /v2/workspaces': () => json({ data: [], next_cursor: null }),
      'GET /v2/api-keys': () => json({ data: [], next_cursor: null }),
    });
    const { router, release } = renderBar();
    const user = userEvent.setup();
    await user.selectOptions(await screen.findByLabelText('Tool'), 'video');
    // The loader has not finished: the route still shows the old search, the control the new one.
    expect(router.state.resolvedLocation?.search).toEqual({});
    expect(screen.getByLabelText('Tool')).toHaveValue('video');
    await user.click(screen.getByLabelText('Failed'));
    expect(screen.getByLabelText('Failed')).toBeChecked();
    release();
    await waitFor(() =>
      expect(router.state.resolvedLocation?.search).toEqual({ tool: 'video', status: 'failed' }),
    );
  });

  it('picks folders and keys by name', async () => {
    stubFetch({
      'GET /v2/workspaces': () =>
        json({
          data: [
            {
              id: FOLDER,
              name: 'Holiday shots',
              slug: 'holiday-shots',
              visibility: 'team',
              team_id: 't',
              created_at: '2026-01-01T00:00:00.000Z',
              updated_at: '2026-01-01T00:00:00.000Z',
              file_count: 0,
            },
          ],
          next_cursor: null,
        }),
      'GET /v2/api-keys': () =>
        json({ data: [{ id: 'key_ci', name: 'CI pipeline', revoked_at: null }], next_cursor: null }),
    });
    const { router, release } = renderBar();
    const user = userEvent.setup();
    const folder = await screen.findByLabelText('Folder');
    await screen.findByRole('option', { name: 'Holiday shots' });
    await user.selectOptions(folder, 'Holiday shots');
    await screen.findByRole('option', { name: 'CI pipeline' });
    await user.selectOptions(screen.getByLabelText('API key'), 'CI pipeline');
    release();
    await waitFor(() => expect(router.state.location.search).toEqual({ folder: FOLDER, key: 'key_ci' }));
  });

  it('names the error a link from analytics filtered by, and removes it', async () => {
    stubFetch({
      'GET /v2/workspaces': () => json({ data: [], next_cursor: null }),
      'GET /v2/api-keys': () => json({ data: [], next_cursor: null }),
    });
    const { router, release } = renderBar('/jobs?status=failed&error=provider_timeout');
    // The first load waits on the loader, which is called once the router starts.
    await waitFor(() => {
      release();
      expect(screen.getByText('The provider took too long')).toBeVisible();
    });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Remove the error filter' }));
    await waitFor(() => {
      release();
      expect(router.state.location.search).toEqual({ status: 'failed' });
    });
    expect(screen.queryByText('The provider took too long')).toBeNull();
  });
});
