import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../api/client.ts';
import { jobKeys } from '../../../queries/jobs.ts';
import { storedValue } from '../../../storage/stored-value.ts';

/*
 * What a new person has done of "get started": made something (the team has a job), got a key (opened
 * the Keys page) and called the API (a key of theirs has been used). The first is the server's, the
 * second is this browser's, the third comes from the keys list. Each browser may also hide the panel.
 */

const readFlag = (json: unknown) => (typeof json === 'boolean' ? json : undefined);

/** Set when the Keys page has been shown: that is where the key is. */
export const keysPageSeen = storedValue('media-console:get-started:keys-seen', readFlag, false);

/** Set by "Hide": the panel stays away in this browser. */
export const getStartedHidden = storedValue('media-console:get-started:hidden', readFlag, false);

/**
 * Whether the team has any job: one job asked for. Under the job lists' key, so a run (which
 * invalidates the lists) ticks "make something" at once.
 */
export function hasAnyJobQueryOptions() {
  return queryOptions({
    queryKey: [...jobKeys.lists(), 'any'] as const,
    queryFn: async () => (await api().listJobs({ query: { limit: 1 } })).data.length > 0,
  });
}
