import { infiniteQueryOptions, type QueryClient, queryOptions } from '@tanstack/react-query';
import type { Job } from '../../contract/jobs.ts';
import { api } from '../api/client.ts';
import { teamScoped } from '../team/current-team.ts';
import { type JobFeedData, latestUpdate, mergeJobs } from './job-feed-cache.ts';
import { type JobFeedFilters, listQueryOf, normalizeFilters } from './job-filters.ts';
import { resetSyncPoint } from './job-sync-points.ts';
import { meKeys } from './me.ts';

/** Rows per page of the feed (the server's maximum). */
export const JOB_PAGE_SIZE = 100;

export const jobKeys = {
  get all() {
    return teamScoped(['jobs'] as const);
  },
  lists: () => teamScoped(['jobs', 'list'] as const),
  list: (filters: JobFeedFilters) => teamScoped(['jobs', 'list', normalizeFilters(filters)] as const),
  details: () => teamScoped(['jobs', 'detail'] as const),
  detail: (id: string) => teamScoped(['jobs', 'detail', id] as const),
  deliveries: (id: string) => teamScoped(['jobs', 'detail', id, 'webhook-deliveries'] as const),
};

/**
 * The job feed: newest first, paged by cursor. It never goes stale on its own: while the feed is on
 * screen, the live updates (jobs-live.ts) merge every change into these pages, so refetching them (all
 * pages, one request each) on focus or remount would only cost requests.
 */
export function jobsQueryOptions(filters: JobFeedFilters) {
  const normal = normalizeFilters(filters);
  return infiniteQueryOptions({
    queryKey: jobKeys.list(normal),
    queryFn: async ({ pageParam }) => {
      const page = await api().listJobs({
        query: { ...listQueryOf(normal), limit: JOB_PAGE_SIZE, cursor: pageParam ?? undefined },
      });
      // The first page says how fresh this feed is: live updates ask for what changed since then (the
      // server's clock when it sends one, else the newest row).
      if (pageParam === null) resetSyncPoint(normal, page.server_time ?? latestUpdate(page.data));
      return page;
    },
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
}

/** One job. Kept current by the feed's live updates while it is in the feed. */
export function jobQueryOptions(id: string) {
  return queryOptions({
    queryKey: jobKeys.detail(id),
    queryFn: () => api().getJob({ params: { id } }),
    refetchOnWindowFocus: false,
  });
}

/**
 * Puts a job the feed already holds into its detail entry, so opening it from the feed (or hovering its
 * link, which preloads) costs no request. The feed's live updates keep that entry current.
 */
export function seedJobFromFeeds(queryClient: QueryClient, id: string): void {
  if (queryClient.getQueryData(jobKeys.detail(id))) return;
  for (const [, data] of queryClient.getQueriesData<JobFeedData>({ queryKey: jobKeys.lists() })) {
    for (const page of data?.pages ?? []) {
      const job = page.data.find((row) => row.id === id);
      if (job) {
        queryClient.setQueryData(jobKeys.detail(id), job);
        return;
      }
    }
  }
}

/** Every attempt to deliver the job's webhook, newest first. */
export function jobDeliveriesQueryOptions(id: string) {
  return queryOptions({
    queryKey: jobKeys.deliveries(id),
    queryFn: async () => (await api().listJobWebhookDeliveries({ params: { id } })).data,
    staleTime: 5_000,
  });
}

export type JobAction = 'cancel' | 'retry' | 'refresh';

/** Runs one action on one job; retry answers the new job (linked by `retry_of`). */
export function runJobAction(action: JobAction, id: string): Promise<Job> {
  const input = { params: { id } };
  if (action === 'cancel') return api().cancelJob(input);
  if (action === 'retry') return api().retryJob(input);
  return api().refreshJob(input);
}

/**
 * Puts jobs that an action answered into the cache: their detail entries, and every cached feed they
 * belong to (a retry's new job appears at the top). Merging beats invalidating here: invalidating a feed
 * refetches every loaded page, hundreds of requests for a long one. The balance moves with cancel and
 * retry, so `me` is invalidated with its own key.
 */
export function applyJobResults(queryClient: QueryClient, jobs: readonly Job[]): void {
  if (jobs.length === 0) return;
  for (const job of jobs) queryClient.setQueryData(jobKeys.detail(job.id), job);
  for (const [key, data] of queryClient.getQueriesData<JobFeedData>({ queryKey: jobKeys.lists() })) {
    const filters = key[2] as JobFeedFilters | undefined;
    if (!data || !filters) continue;
    const { data: merged, changes } = mergeJobs(data, jobs, filters);
    if (changes > 0) queryClient.setQueryData(key, merged);
  }
  void queryClient.invalidateQueries({ queryKey: meKeys.all });
}
