import { useSuspenseInfiniteQuery, useSuspenseQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useCallback, useMemo, useState } from 'react';
import { isTerminalJobStatus } from '../../../../contract/values.ts';
import { buttonClasses } from '../../../components/button.tsx';
import { EmptyState } from '../../../components/empty-state.tsx';
import { showToast } from '../../../components/toast-store.ts';
import { PHONE, useMediaQuery } from '../../../components/use-media-query.ts';
import { flattenPages } from '../../../queries/job-feed-cache.ts';
import { hasFilters, type JobFeedFilters } from '../../../queries/job-filters.ts';
import { jobsQueryOptions } from '../../../queries/jobs.ts';
import { useJobFeedLive } from '../../../queries/jobs-live.ts';
import { meQueryOptions } from '../../../queries/me.ts';
import { pricingQueryOptions } from '../../../queries/pricing.ts';
import { finishedToast } from './finished-toast.ts';
import { JobBulkBar } from './job-bulk-bar.tsx';
import { JobCards } from './job-cards.tsx';
import { JobTable } from './job-table.tsx';
import { LiveIndicator } from './live-indicator.tsx';
import { useNow } from './use-now.ts';

interface JobFeedProps {
  filters: JobFeedFilters;
  /** The job whose details are open. */
  openId: string | undefined;
}

/** The live job feed: bulk actions on a selection, and the virtualised table (the filters sit above it). */
export function JobFeed({ filters, openId }: JobFeedProps) {
  const navigate = useNavigate({ from: '/jobs' });
  const feed = useSuspenseInfiniteQuery(jobsQueryOptions(filters));
  const { data: me } = useSuspenseQuery(meQueryOptions());
  const jobs = useMemo(() => flattenPages(feed.data), [feed.data]);
  const anyActive = useMemo(() => jobs.some((job) => !isTerminalJobStatus(job.status)), [jobs]);
  const now = useNow(anyActive ? 1_000 : 30_000);
  const phone = useMediaQuery(PHONE);
  const { data: pricing } = useSuspenseQuery(pricingQueryOptions());
  const modelNames = useMemo(
    () => new Map(pricing.data.map((entry) => [entry.model, entry.display_name])),
    [pricing.data],
  );

  const open = useCallback(
    (jobId: string) => void navigate({ to: '/jobs/$jobId', params: { jobId }, search: (prev) => prev }),
    [navigate],
  );

  const live = useJobFeedLive(filters, {
    onFinished: (finished) => {
      // Only the person's own jobs: a teammate's finishing is not news to them.
      const mine = finished.filter((job) => me.person !== null && job.person_id === me.person.id);
      const toast = finishedToast(mine, open);
      if (toast) showToast(toast);
    },
  });

  const [selectedIds, setSelectedIds] = useState<ReadonlySet<string>>(() => new Set());
  const selected = useMemo(() => jobs.filter((job) => selectedIds.has(job.id)), [jobs, selectedIds]);
  const toggle = useCallback((id: string) => {
    setSelectedIds((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  }, []);
  const toggleAll = () =>
    setSelectedIds(selected.length === jobs.length ? new Set() : new Set(jobs.map((job) => job.id)));
  const clearSelection = () => setSelectedIds(new Set());

  const { fetchNextPage } = feed;
  const loadMore = useCallback(() => void fetchNextPage(), [fetchNextPage]);

  return (
    <>
      <div className="mb-3 flex justify-end">
        <LiveIndicator state={live} active={anyActive} />
      </div>
      {selected.length > 0 && (
        <JobBulkBar selected={selected} onDone={clearSelection} onClear={clearSelection} />
      )}
      {jobs.length === 0 && !feed.hasNextPage ? (
        <NoJobs filtered={hasFilters(filters)} onClear={() => void navigate({ to: '/jobs', search: {} })} />
      ) : phone ? (
        <JobCards
          jobs={jobs}
          hasMore={feed.hasNextPage}
          loadingMore={feed.isFetchingNextPage}
          onLoadMore={loadMore}
          selected={selectedIds}
          onToggle={toggle}
          openId={openId}
          now={now}
          modelNames={modelNames}
        />
      ) : (
        <JobTable
          jobs={jobs}
          hasMore={feed.hasNextPage}
          loadingMore={feed.isFetchingNextPage}
          onLoadMore={loadMore}
          selected={selectedIds}
          onToggle={toggle}
          onToggleAll={toggleAll}
          onOpen={open}
          openId={openId}
          now={now}
          modelNames={modelNames}
        />
      )}
    </>
  );
}

function NoJobs({ filtered, onClear }: { filtered: boolean; onClear: () => void }) {
  if (filtered) {
    return (
      <EmptyState
        title="No jobs match these filters"
        action={
          <button type="button" className={buttonClasses('secondary')} onClick={onClear}>
            Clear filters
          </button>
        }
      >
        New jobs that match appear here as they are created.
      </EmptyState>
    );
  }
  return (
    <EmptyState
      title="No jobs yet"
      action={
        <Link to="/playground" className={buttonClasses('primary')}>
          Open the playground
        </Link>
      }
    >
      Every generation request made with your account or your keys is listed here, live, with its status, cost
      and output.
    </EmptyState>
  );
}
