import { useSuspenseQuery } from '@tanstack/react-query';
import { createFileRoute, type ErrorComponentProps } from '@tanstack/react-router';
import { ApiError } from '../../client/api-error.ts';
import { isJobId } from '../../contract/values.ts';
import { Alert } from '../components/alert.tsx';
import { LoadingNote } from '../components/loading-note.tsx';
import { RouteError } from '../components/route-error.tsx';
import { toolLabel } from '../format/tool-label.ts';
import { normalizeFilters } from '../queries/job-filters.ts';
import { jobQueryOptions, seedJobFromFeeds } from '../queries/jobs.ts';
import { JobDetail } from './-components/jobs/job-detail.tsx';
import { JobDrawer } from './-components/jobs/job-drawer.tsx';
import { jobExcerpt } from './-components/jobs/job-excerpt.ts';

/** A job's details, in a drawer over the feed. Pending and error states stay inside the drawer. */
export const Route = createFileRoute('/_app/jobs/$jobId')({
  loader: ({ context: { queryClient }, params }) => {
    // A malformed id in a link is as missing as an unknown one (checked here, where the drawer's error shows it).
    if (!isJobId(params.jobId)) {
      throw new ApiError({ status: 404, code: 'not_found', message: `No job ${params.jobId}.` });
    }
    seedJobFromFeeds(queryClient, params.jobId);
    return queryClient.ensureQueryData(jobQueryOptions(params.jobId));
  },
  component: JobDrawerPage,
  pendingComponent: DrawerPending,
  errorComponent: DrawerError,
});

function JobDrawerPage() {
  const { jobId } = Route.useParams();
  const filters = normalizeFilters(Route.useSearch());
  return (
    <JobDrawer title={<JobTitle id={jobId} />}>
      <JobDetail id={jobId} filters={filters} />
    </JobDrawer>
  );
}

/** What the job was asked to do, in words, with its id beneath (the id is what support asks for). */
function JobTitle({ id }: { id: string }) {
  const { data: job } = useSuspenseQuery(jobQueryOptions(id));
  return (
    <>
      <span className="block truncate">{jobExcerpt(job) ?? `${toolLabel(job.tool)} job`}</span>
      <span className="block font-mono text-xs font-normal text-zinc-600 dark:text-zinc-400">{id}</span>
    </>
  );
}

function DrawerPending() {
  return (
    <JobDrawer title="Job">
      <LoadingNote>Loading the job…</LoadingNote>
    </JobDrawer>
  );
}

/** A job that is not there says so; anything else (an outage, the drawer's code not downloading) retries. */
function DrawerError(props: ErrorComponentProps) {
  const { error } = props;
  // A 404, or an id that is no job id at all (the loader refused it).
  const missing = error instanceof ApiError && error.status === 404;
  return (
    <JobDrawer title="Job">
      {missing ? (
        <Alert tone="error" title="No such job">
          There is no job with this id in your team. It may belong to another team, or the link may be
          mistyped.
        </Alert>
      ) : (
        <RouteError {...props} />
      )}
    </JobDrawer>
  );
}
