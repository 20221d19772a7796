import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { Job, JobStatus } from '../../contract/jobs.ts';
import { isTerminalJobStatus } from '../../contract/values.ts';
import { api } from '../api/client.ts';
import { type Poller, type PollOutcome, startPoller } from './feed-poller.ts';
import { flattenPages, type JobFeedData, latestUpdate, mergeJobs } from './job-feed-cache.ts';
import { type JobFeedFilters, listQueryOf, normalizeFilters } from './job-filters.ts';
import { advanceSyncPoint, syncPoint } from './job-sync-points.ts';
import { JOB_PAGE_SIZE, jobKeys } from './jobs.ts';
import { meKeys } from './me.ts';

/**
 * Rows are asked for from a little before the sync point: `updated_at` is the time a write began, and a
 * slower write that began earlier may commit after a faster one was already seen. Rows seen twice merge
 * to nothing.
 */
const OVERLAP_MS = 2_000;
/** A burst of changes larger than this many pages is not paged through: the first page is reloaded. */
const MAX_CHANGE_PAGES = 5;

let current: Poller | null = null;

/** Asks the feed on screen, if any, for its changes now (after an action changed jobs). */
export function wakeJobFeed(): void {
  current?.wake();
}

/** `failing`: the last request for changes failed (the poller keeps trying, more slowly). */
export type LiveState = 'live' | 'failing';

interface LiveOptions {
  /** Jobs that finished while the feed watched them, or that were created and finished since it opened. */
  onFinished?: (jobs: Job[]) => void;
}

/**
 * Keeps the feed for `filters` current with ONE `GET /v2/jobs?updated_since=…` per interval, however many
 * jobs are active, merged into the cached pages (and into open job details). The status filter is left
 * out of that request so a job that leaves the filter (running → completed) is seen leaving.
 */
export function useJobFeedLive(filters: JobFeedFilters, options: LiveOptions = {}): LiveState {
  const queryClient = useQueryClient();
  const [state, setState] = useState<LiveState>('live');
  const onFinished = useRef(options.onFinished);
  onFinished.current = options.onFinished;
  const filtersKey = JSON.stringify(normalizeFilters(filters));

  useEffect(() => {
    const normal = JSON.parse(filtersKey) as JobFeedFilters;
    const listKey = jobKeys.list(normal);
    const tracker = createTracker(queryClient.getQueryData<JobFeedData>(listKey));
    const poll = async () => {
      try {
        const outcome = await pollChanges(queryClient, normal, tracker, (jobs) => onFinished.current?.(jobs));
        setState('live');
        return outcome;
      } catch (error) {
        setState('failing');
        throw error;
      }
    };
    // The first answer is the baseline of what "finished while watching" means: asked for at once, so
    // that jobs made right after the feed opened are not taken for old ones.
    const poller = startPoller(poll, { pollAtStart: true });
    current = poller;
    return () => {
      poller.stop();
      if (current === poller) current = null;
    };
  }, [queryClient, filtersKey]);
  return state;
}

/**
 * What the live updates remember between polls, to tell who finished while the person watched: the last
 * status seen of every job (including those the status filter hides), and after the first answer (the
 * baseline) a server instant: an unseen job that finished at or after it finished while watching (null:
 * the baseline was empty, so every unseen job is new).
 */
interface Tracker {
  known: Map<string, JobStatus>;
  baseline: { since: string | null } | null;
}

function createTracker(data: JobFeedData | undefined): Tracker {
  const known = new Map<string, JobStatus>();
  for (const job of data ? flattenPages(data) : []) known.set(job.id, job.status);
  return { known, baseline: null };
}

function finishedWhileWatching(job: Job, was: JobStatus | undefined, tracker: Tracker): boolean {
  if (!isTerminalJobStatus(job.status)) return false;
  if (was !== undefined) return !isTerminalJobStatus(was);
  if (!tracker.baseline) return false;
  const { since } = tracker.baseline;
  return since === null || (job.completed_at ?? job.updated_at) >= since;
}

async function fetchChanges(filters: JobFeedFilters, since: string | null) {
  const query = {
    ...listQueryOf(filters, { withStatus: false }),
    limit: JOB_PAGE_SIZE,
    updated_since: since ? new Date(Date.parse(since) - OVERLAP_MS).toISOString() : undefined,
  };
  const jobs: Job[] = [];
  let cursor: string | null = null;
  let pages = 0;
  // The server's clock at the first page: every change committed before it is in this answer.
  let serverTime: string | null = null;
  do {
    const page = await api().listJobs({ query: { ...query, cursor: cursor ?? undefined } });
    serverTime ??= page.server_time ?? null;
    jobs.push(...page.data);
    cursor = page.next_cursor;
    pages++;
    // Without a sync point (an empty feed) the newest page is all there is to show.
  } while (cursor && since && pages < MAX_CHANGE_PAGES);
  return { jobs, overflow: Boolean(cursor && since), serverTime };
}

async function pollChanges(
  queryClient: QueryClient,
  filters: JobFeedFilters,
  tracker: Tracker,
  onFinished: (jobs: Job[]) => void,
): Promise<PollOutcome> {
  const listKey = jobKeys.list(filters);
  const since = syncPoint(filters);
  const { jobs, overflow, serverTime } = await fetchChanges(filters, since);
  const data = queryClient.getQueryData<JobFeedData>(listKey);

  const before = new Map<string, JobStatus>();
  for (const job of data ? flattenPages(data) : []) before.set(job.id, job.status);
  const finished: Job[] = [];
  // A new job holds credits, a finished one settles or releases them: either moves the balance.
  let balanceMoved = false;
  for (const job of jobs) {
    // The cache first: it already holds what an action here answered (a job cancelled here is no news).
    const was = before.get(job.id) ?? tracker.known.get(job.id);
    if (was !== job.status) balanceMoved = true;
    if (finishedWhileWatching(job, was, tracker)) finished.push(job);
    tracker.known.set(job.id, job.status);
  }
  tracker.baseline ??= { since: latestUpdate(jobs, since) };

  let changes = 0;
  if (data) {
    const merged = mergeJobs(data, jobs, filters);
    changes = merged.changes;
    if (changes > 0) queryClient.setQueryData(listKey, merged.data);
  }
  for (const job of jobs) {
    const open = queryClient.getQueryData<Job>(jobKeys.detail(job.id));
    if (open && Date.parse(job.updated_at) > Date.parse(open.updated_at))
      queryClient.setQueryData(jobKeys.detail(job.id), job);
  }

  if (overflow) {
    // Too much changed to page through: keep the first page only and load it again.
    queryClient.setQueryData<JobFeedData>(listKey, (old) =>
      old ? { pages: old.pages.slice(0, 1), pageParams: old.pageParams.slice(0, 1) } : old,
    );
    await queryClient.refetchQueries({ queryKey: listKey, exact: true });
    // Jobs seen active that are not in the reloaded page may have finished unseen: forget them rather than
    // keep polling every second for them.
    const fresh = new Map<string, JobStatus>();
    for (const job of flattenPages(queryClient.getQueryData<JobFeedData>(listKey) ?? { pages: [] })) {
      fresh.set(job.id, job.status);
    }
    for (const [id, status] of tracker.known) {
      if (!isTerminalJobStatus(status) && !fresh.has(id)) tracker.known.delete(id);
    }
    for (const [id, status] of fresh) tracker.known.set(id, status);
  }
  advanceSyncPoint(filters, serverTime ?? latestUpdate(jobs));
  // One balance request per poll that saw news, however many jobs it brought.
  if (balanceMoved) void queryClient.invalidateQueries({ queryKey: meKeys.all });

  if (finished.length > 0) onFinished(finished);
  const feed = queryClient.getQueryData<JobFeedData>(listKey);
  const active =
    [...tracker.known.values()].some((status) => !isTerminalJobStatus(status)) ||
    (feed ? flattenPages(feed).some((j) => !isTerminalJobStatus(j.status)) : false);
  return { active, changed: changes > 0 };
}
