import type { InfiniteData } from '@tanstack/react-query';
import type { z } from 'zod';
import type { Job, JobPage } from '../../contract/jobs.ts';
import { isTerminalJobStatus } from '../../contract/values.ts';
import { type JobFeedFilters, jobMatches } from './job-filters.ts';

export type JobPageData = z.infer<typeof JobPage>;
/** The feed's cache: pages of `GET /v2/jobs`, each page param the cursor it was fetched with. */
export type JobFeedData = InfiniteData<JobPageData, string | null>;

/** Feed order, as the server's: newest `created_at` first, then `id` descending. Negative when `a` comes first. */
export function feedOrder(a: Job, b: Job): number {
  // Both are toISOString() output of the server (same length and zone), so text order is time order.
  if (a.created_at !== b.created_at) return a.created_at > b.created_at ? -1 : 1;
  if (a.id === b.id) return 0;
  return a.id > b.id ? -1 : 1;
}

/** True when `incoming` is a newer state of the job than `current` (a late answer never rolls a row back). */
function isNewer(incoming: Job, current: Job): boolean {
  const a = Date.parse(incoming.updated_at);
  const b = Date.parse(current.updated_at);
  if (a !== b) return a > b;
  // Same instant: a terminal state or more progress wins; identical answers change nothing.
  if (incoming.status !== current.status) return isTerminalJobStatus(incoming.status);
  return (incoming.progress ?? 0) > (current.progress ?? 0);
}

export interface MergeOutcome {
  data: JobFeedData;
  /** Rows that were replaced, inserted or removed. */
  changes: number;
}

/**
 * Applies fresh job states to the cached pages: a job still matching the filters replaces its row, one
 * that no longer matches leaves, and a new one is inserted in feed order. A new job older than every loaded
 * row is skipped while more pages remain (the next page brings it). Only touched pages are copied, so
 * React re-renders what changed and nothing else.
 */
export function mergeJobs(data: JobFeedData, jobs: readonly Job[], filters: JobFeedFilters): MergeOutcome {
  if (jobs.length === 0 || data.pages.length === 0) return { data, changes: 0 };
  const where = new Map<string, { page: number; row: number }>();
  data.pages.forEach((page, p) => {
    page.data.forEach((job, r) => {
      where.set(job.id, { page: p, row: r });
    });
  });

  const pages = data.pages.map((page) => page.data);
  const touched = new Set<number>();
  const writable = (p: number) => {
    if (!touched.has(p)) {
      pages[p] = [...pages[p]!];
      touched.add(p);
    }
    return pages[p]!;
  };

  const removals = new Map<number, Set<string>>();
  const inserts: Job[] = [];
  let changes = 0;
  for (const job of jobs) {
    const at = where.get(job.id);
    const matches = jobMatches(job, filters);
    if (at) {
      const current = pages[at.page]![at.row]!;
      if (!matches) {
        if (!removals.has(at.page)) removals.set(at.page, new Set());
        removals.get(at.page)!.add(job.id);
        changes++;
      } else if (isNewer(job, current)) {
        writable(at.page)[at.row] = job;
        changes++;
      }
    } else if (matches) {
      inserts.push(job);
    }
  }

  // Removals before inserts: removing shifts rows, inserting finds its place by order, not index.
  for (const [p, ids] of removals) {
    pages[p] = writable(p).filter((job) => !ids.has(job.id));
  }

  const morePages = data.pages[data.pages.length - 1]!.next_cursor !== null;
  const seen = new Set<string>();
  for (const job of [...inserts].sort(feedOrder)) {
    if (seen.has(job.id)) continue;
    seen.add(job.id);
    const target = pageFor(pages, job, morePages);
    if (target === null) continue;
    const rows = writable(target);
    const index = rows.findIndex((row) => feedOrder(job, row) < 0);
    rows.splice(index === -1 ? rows.length : index, 0, job);
    changes++;
  }

  if (changes === 0) return { data, changes };
  return {
    data: {
      ...data,
      pages: data.pages.map((page, p) => (touched.has(p) ? { ...page, data: pages[p]! } : page)),
    },
    changes,
  };
}

/** The loaded page a new job belongs on, or null when it sorts after every loaded row and more pages remain. */
function pageFor(pages: Job[][], job: Job, morePages: boolean): number | null {
  for (let p = 0; p < pages.length; p++) {
    const last = pages[p]![pages[p]!.length - 1];
    if (last && feedOrder(job, last) < 0) return p;
  }
  return morePages ? null : pages.length - 1;
}

/** Every job in the cached pages, in feed order. */
export function flattenPages(data: Pick<JobFeedData, 'pages'>): Job[] {
  return data.pages.length === 1 ? data.pages[0]!.data : data.pages.flatMap((page) => page.data);
}

/** The latest `updated_at` among these jobs, or null. */
export function latestUpdate(jobs: Iterable<Job>, since: string | null = null): string | null {
  let latest = since;
  let latestMs = since ? Date.parse(since) : Number.NEGATIVE_INFINITY;
  for (const job of jobs) {
    const ms = Date.parse(job.updated_at);
    if (ms > latestMs) {
      latestMs = ms;
      latest = job.updated_at;
    }
  }
  return latest;
}
