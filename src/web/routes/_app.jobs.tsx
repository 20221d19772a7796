import { createFileRoute, Outlet, useParams } from '@tanstack/react-router';
import { PageHeader } from '../components/page-header.tsx';
import { JobFeedSearch, normalizeFilters } from '../queries/job-filters.ts';
import { jobsQueryOptions } from '../queries/jobs.ts';
import { pricingQueryOptions } from '../queries/pricing.ts';
import { JobFeed } from './-components/jobs/job-feed.tsx';
import { JobFeedFilterBar } from './-components/jobs/job-filter-bar.tsx';

/**
 * The job feed. Its filters live in the URL; a job's details open in a drawer at /jobs/<job_id>, a
 * child route, so a detail link is shareable, the feed stays mounted (and live) behind it, and the
 * drawer's code and data load only when it opens.
 */
export const Route = createFileRoute('/_app/jobs')({
  validateSearch: JobFeedSearch,
  loaderDeps: ({ search }) => normalizeFilters(search),
  loader: ({ context: { queryClient }, deps }) =>
    Promise.all([
      queryClient.ensureInfiniteQueryData(jobsQueryOptions(deps)),
      queryClient.ensureQueryData(pricingQueryOptions()),
    ]),
  component: JobsPage,
});

function JobsPage() {
  const filters = normalizeFilters(Route.useSearch());
  const { jobId } = useParams({ strict: false });
  return (
    <>
      <PageHeader
        title="Jobs"
        description="Every job of your team, newest first, updated live. Select jobs to cancel, retry or refresh them together."
      />
      <JobFeedFilterBar />
      {/* A new filter is a new feed: selection and scroll start over. */}
      <JobFeed key={JSON.stringify(filters)} filters={filters} openId={jobId} />
      <Outlet />
    </>
  );
}
