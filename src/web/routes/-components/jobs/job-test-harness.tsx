import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import {
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
  Outlet,
  RouterProvider,
  useParams,
} from '@tanstack/react-router';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import type { Me } from '../../../../contract/account.ts';
import type { Job } from '../../../../contract/jobs.ts';
import { freshJob } from '../../../../contract/test-fixtures.ts';
import { ToastRegion } from '../../../components/toast-region.tsx';
import { JobFeedSearch, normalizeFilters } from '../../../queries/job-filters.ts';
import { meKeys } from '../../../queries/me.ts';
import { pricingKeys } from '../../../queries/pricing.ts';

/* Test support for the job components: a person, jobs, and a memory router with the app's job paths. */

export const PERSON_ID = 'a0000000-0000-4000-8000-000000000001';

export const ME: Me = {
  person: {
    id: PERSON_ID,
    email: 'ada@example.com',
    display_name: 'Ada',
    avatar_url: null,
    created_at: '2026-01-01T00:00:00.000Z',
  },
  team: {
    id: 'b0000000-0000-4000-8000-000000000001',
    name: 'Ada',
    slug: 'ada',
    personal: true,
    role: 'owner',
  },
  teams: [],
  role: 'owner',
  balance_cents: 1000,
  auth: { kind: 'session', api_key_id: null },
};

/** Job number `n` (higher is newer), completed unless told otherwise, started by the person. */
export function testJob(n: number, overrides: Partial<Job> = {}): Job {
  const at = new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString();
  return freshJob({
    id: `job_${String(n).padStart(5, '0')}`,
    status: 'completed',
    created_at: at,
    updated_at: at,
    person_id: PERSON_ID,
    input: { model: 'local-sketch', prompt: `prompt number ${n}` },
    ...overrides,
  });
}

type JobsPage = (filters: ReturnType<typeof normalizeFilters>) => ReactNode;
type JobPage = (jobId: string, filters: ReturnType<typeof normalizeFilters>) => ReactNode;

/**
 * Renders `/jobs` (and `/jobs/$jobId` inside it) in a memory router at `url`, with the person and an
 * empty price catalog in the cache. `seed` fills the cache before the first render.
 */
export function renderJobRoutes(options: {
  url: string;
  jobs: JobsPage;
  job?: JobPage;
  seed?: (queryClient: QueryClient, filters: ReturnType<typeof normalizeFilters>) => void;
}) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  queryClient.setQueryData(meKeys.all, ME);
  queryClient.setQueryData(pricingKeys.all, { data: [] });
  const root = createRootRoute({ component: Outlet });
  const jobsRoute = createRoute({
    getParentRoute: () => root,
    path: '/jobs',
    validateSearch: JobFeedSearch,
    component: function JobsPage() {
      return (
        <>
          {options.jobs(normalizeFilters(jobsRoute.useSearch()))}
          <Outlet />
        </>
      );
    },
  });
  const jobRoute = createRoute({
    getParentRoute: () => jobsRoute,
    path: '$jobId',
    component: function JobPage() {
      const { jobId = '' } = useParams({ strict: false });
      return options.job?.(jobId, normalizeFilters(jobRoute.useSearch())) ?? null;
    },
  });
  const playground = createRoute({ getParentRoute: () => root, path: '/playground', component: () => null });
  const router = createRouter({
    routeTree: root.addChildren([jobsRoute.addChildren([jobRoute]), playground]),
    history: createMemoryHistory({ initialEntries: [options.url] }),
  });
  options.seed?.(queryClient, normalizeFilters(JobFeedSearch(router.state.location.search)));
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      <ToastRegion />
    </QueryClientProvider>,
  );
  return { router, queryClient };
}
