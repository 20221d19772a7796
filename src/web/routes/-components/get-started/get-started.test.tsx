import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import {
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
  Outlet,
  RouterProvider,
} from '@tanstack/react-router';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json, stubFetch } from '../../../testing/fake-fetch.ts';
import { testKey } from '../keys/key-test-data.ts';
import { GetStarted } from './get-started.tsx';
import { getStartedHidden, keysPageSeen } from './get-started-progress.ts';

function renderOnFirstScreen() {
  const root = createRootRoute({ component: Outlet });
  const playground = createRoute({ getParentRoute: () => root, path: '/playground', component: GetStarted });
  const keys = createRoute({ getParentRoute: () => root, path: '/keys', component: () => <h1>Keys</h1> });
  const router = createRouter({
    routeTree: root.addChildren([playground, keys]),
    history: createMemoryHistory({ initialEntries: ['/playground'] }),
  });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return queryClient;
}

function server({ jobs, lastUsed }: { jobs: number; lastUsed: string | null }) {
  return stubFetch({
    'GET /v2/jobs': () =>
      json({
        data: Array.from({ length: jobs }, () => ({ id: 'job_1' })),
        has_more: false,
        next_cursor: null,
      }),
    'GET /v2/api-keys': () =>
      json({ data: [testKey({ last_used_at: lastUsed })], has_more: false, next_cursor: null }),
  });
}

beforeEach(() => {
  keysPageSeen.clear();
  getStartedHidden.clear();
});
afterEach(() => vi.unstubAllGlobals());

describe('get started, on the first screen', () => {
  it('points a new person at making something, their key and the API, each with where it happens', async () => {
    server({ jobs: 0, lastUsed: null });
    renderOnFirstScreen();
    const panel = await screen.findByRole('region', { name: 'Get started' });
    expect(panel).toHaveTextContent('0 of 3 done');
    const steps = within(panel)
      .getAllByRole('heading', { level: 3 })
      .map((h) => h.textContent);
    expect(steps).toEqual(['Make something (to do)', 'Get your key (to do)', 'Call the API (to do)']);
    expect(within(panel).getByRole('link', { name: 'Keys page' })).toHaveAttribute('href', '/keys');
    expect(within(panel).getByRole('link', { name: 'API reference' })).toHaveAttribute(
      'href',
      '/api-reference',
    );
  });

  it('ticks what is done, and goes once all three are', async () => {
    server({ jobs: 1, lastUsed: null });
    keysPageSeen.set(true);
    renderOnFirstScreen();
    const panel = await screen.findByRole('region', { name: 'Get started' });
    expect(panel).toHaveTextContent('2 of 3 done');
    expect(within(panel).getByRole('heading', { name: /^Make something\s*\(done\)$/ })).toBeInTheDocument();
    expect(within(panel).getByRole('heading', { name: /^Call the API\s*\(to do\)$/ })).toBeInTheDocument();
  });

  it('is not shown to someone who has made something and called the API with their key', async () => {
    const api = server({ jobs: 3, lastUsed: '2026-11-27T10:00:00.000Z' });
    const queryClient = renderOnFirstScreen();
    await vi.waitFor(() => expect(api.callsTo('GET /v2/api-keys').length).toBeGreaterThan(0));
    await vi.waitFor(() => expect(api.callsTo('GET /v2/jobs').length).toBeGreaterThan(0));
    // Both answers are in the cache: the panel has decided.
    await vi.waitFor(() => expect(queryClient.isFetching()).toBe(0));
    expect(
      queryClient
        .getQueryCache()
        .getAll()
        .every((query) => query.state.status === 'success'),
    ).toBe(true);
    expect(screen.queryByRole('region', { name: 'Get started' })).toBeNull();
  });

  it('can be hidden, and stays hidden', async () => {
    server({ jobs: 0, lastUsed: null });
    renderOnFirstScreen();
    await userEvent.click(await screen.findByRole('button', { name: 'Hide get started' }));
    expect(screen.queryByRole('region', { name: 'Get started' })).toBeNull();
    expect(getStartedHidden.get()).toBe(true);
  });
});
