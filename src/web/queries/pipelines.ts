import { queryOptions } from '@tanstack/react-query';
import type { Job } from '../../contract/jobs.ts';
import { api } from '../api/client.ts';
import { teamScoped } from '../team/current-team.ts';

// No schema here: the pipelines route's loader starts these requests from the console's first chunk, which
// loads without zod (the step states are parsed in routes/-components/pipelines/step-states.ts).

/** Under `['jobs']`, so whoever invalidates the jobs refreshes these too. */
export const pipelineKeys = {
  get recent() {
    return teamScoped(['jobs', 'pipelines', 'recent'] as const);
  },
  run: (id: string) => teamScoped(['jobs', 'pipelines', 'run', id] as const),
};

const LIVE_POLL_MS = 1000;
const RECENT_POLL_MS = 3000;
export const RECENT_PIPELINES = 10;

const settled = (status: Job['status']) => ['completed', 'failed', 'cancelled'].includes(status);

/** A pipeline job in full, polled every second while it runs: its steps live in `progress_metadata.steps`. */
export function pipelineRunQueryOptions(id: string) {
  return queryOptions({
    queryKey: pipelineKeys.run(id),
    queryFn: () => api().getJob({ params: { id } }),
    refetchInterval: (query) => (query.state.data && settled(query.state.data.status) ? false : LIVE_POLL_MS),
    refetchIntervalInBackground: false,
  });
}

/** The newest pipelines of the team, refreshed while one of them runs. */
export function recentPipelinesQueryOptions() {
  return queryOptions({
    queryKey: pipelineKeys.recent,
    queryFn: () => api().listJobs({ query: { tool: 'pipeline', limit: RECENT_PIPELINES } }),
    refetchInterval: (query) =>
      query.state.data?.data.some((job) => !settled(job.status)) ? RECENT_POLL_MS : false,
  });
}
