import { Link, useNavigate } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import type { JobFeedFilters } from '../../../queries/job-filters.ts';
import type { Filters } from './analytics-search.ts';
import { jobFeedLink } from './job-feed-link.ts';
import { DIMENSION_LABELS } from './labels.ts';

/** Opens the job feed with these filters over [start, end) (a bar's click). */
export function useOpenJobs() {
  const navigate = useNavigate();
  return (filters: Filters, start: number, end: number) =>
    void navigate({ to: '/jobs', search: jobFeedLink(filters, start, end).search });
}

interface JobsLinkProps {
  filters: Filters;
  start: number;
  end: number;
  children: ReactNode;
  className?: string;
  /** Feed filters that analytics has no dimension for (the error code of a top error). */
  feed?: Partial<JobFeedFilters>;
}

/**
 * A link to the job feed with the same filters and range. Filters the feed cannot apply are named in
 * its title, so the difference between the two pages is explained rather than hidden.
 */
export function JobsLink({ filters, start, end, children, className, feed }: JobsLinkProps) {
  const link = jobFeedLink(filters, start, end);
  const search = { ...link.search, ...feed };
  const dropped = link.dropped;
  const title =
    dropped.length > 0
      ? `The job feed cannot filter by ${dropped.map((name) => DIMENSION_LABELS[name].toLowerCase()).join(', ')}: it shows jobs of every one.`
      : undefined;
  return (
    <Link
      to="/jobs"
      search={search}
      title={title}
      className={
        className ??
        'font-medium text-indigo-700 underline-offset-2 hover:underline focus-visible:underline dark:text-indigo-300'
      }
    >
      {children}
    </Link>
  );
}

/** The filters with one dimension narrowed to a single value (a row or a bar of that value). */
export function withValue(filters: Filters, name: keyof Filters, value: string | null): Filters {
  return value === null ? filters : { ...filters, [name]: value };
}
