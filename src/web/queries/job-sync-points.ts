import type { JobFeedFilters } from './job-filters.ts';

/*
 * How far each feed is in sync with the server: a server `updated_at` such that every change after it
 * is still to be fetched. Kept apart from the rows on purpose: an action's answer merged into the rows
 * (applyJobResults) carries a newer `updated_at` than the feed has synced to, and taking the rows'
 * latest would skip the changes in between.
 */
const points = new Map<string, string>();

const keyOf = (filters: JobFeedFilters) => JSON.stringify(filters);

export function syncPoint(filters: JobFeedFilters): string | null {
  return points.get(keyOf(filters)) ?? null;
}

/** Restarts a feed's sync point from a first page just fetched (null: the feed is empty). */
export function resetSyncPoint(filters: JobFeedFilters, at: string | null): void {
  if (at) points.set(keyOf(filters), at);
  else points.delete(keyOf(filters));
}

/** Moves a feed's sync point forward, never back. */
export function advanceSyncPoint(filters: JobFeedFilters, at: string | null): void {
  if (!at) return;
  const key = keyOf(filters);
  const current = points.get(key);
  if (!current || Date.parse(at) > Date.parse(current)) points.set(key, at);
}
