import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef } from 'react';
import type { Job } from '../../../../contract/jobs.ts';
import { isTerminalJobStatus } from '../../../../contract/values.ts';
import { ColumnHeading } from '../../../components/data-table.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { pluralize } from '../../../format/words.ts';
import { JobRow, ROW_HEIGHT } from './job-row.tsx';

interface JobTableProps {
  jobs: readonly Job[];
  hasMore: boolean;
  loadingMore: boolean;
  onLoadMore: () => void;
  selected: ReadonlySet<string>;
  onToggle: (id: string) => void;
  onToggleAll: () => void;
  onOpen: (id: string) => void;
  /** The job open in the drawer, highlighted. */
  openId: string | undefined;
  now: number;
  /** Catalog display names by model id ("Local sketch" for local-sketch). */
  modelNames: ReadonlyMap<string, string>;
}

/** Rows within this distance of the end start loading the next page. */
const PREFETCH_ROWS = 30;

/**
 * The feed as a real table (header cells, row and column semantics) of which only the rows in view
 * exist: two spacer rows stand for the others, so 10,000 jobs cost as much as 30.
 * Not a DataTable: it is virtualised (spacer rows stand for the rows out of view, `aria-rowcount` counts them).
 */
export function JobTable(props: JobTableProps) {
  const {
    jobs,
    hasMore,
    loadingMore,
    onLoadMore,
    selected,
    onToggle,
    onToggleAll,
    onOpen,
    openId,
    now,
    modelNames,
  } = props;
  const scrollRef = useRef<HTMLElement>(null);
  const virtualizer = useVirtualizer({
    count: jobs.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
    getItemKey: (index) => jobs[index]!.id,
  });
  const items = virtualizer.getVirtualItems();
  const last = items[items.length - 1];

  useEffect(() => {
    if (last && hasMore && !loadingMore && last.index >= jobs.length - PREFETCH_ROWS) onLoadMore();
  }, [last, hasMore, loadingMore, jobs.length, onLoadMore]);

  const paddingTop = items[0]?.start ?? 0;
  const paddingBottom = virtualizer.getTotalSize() - (last?.end ?? 0);
  const allSelected =
    jobs.length > 0 && selected.size >= jobs.length && jobs.every((j) => selected.has(j.id));
  const coarseNow = Math.floor(now / 30_000) * 30_000;

  return (
    <div className="overflow-hidden rounded-xl border border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900">
      <section
        ref={scrollRef}
        className="relative max-h-[calc(100dvh-19rem)] min-h-64 overflow-auto"
        // Scrollable with the keyboard too (arrow keys, Page Down) once focused.
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scroll container must be reachable by keyboard.
        tabIndex={0}
        aria-label="Job list"
      >
        <table
          aria-rowcount={jobs.length + 1}
          className="w-full min-w-[64rem] table-fixed border-collapse text-sm"
        >
          <colgroup>
            <col className="w-10" />
            <col className="w-12" />
            <col className="w-32" />
            <col className="w-28" />
            <col className="w-44" />
            <col />
            <col className="w-28" />
            <col className="w-32" />
            <col className="w-28" />
          </colgroup>
          <thead className="sticky top-0 z-10 border-b border-zinc-200 bg-white text-zinc-500 dark:border-zinc-800 dark:bg-zinc-900 dark:text-zinc-400">
            <tr aria-rowindex={1}>
              <th scope="col" className="w-10 py-2.5 pl-4 text-left">
                <input
                  type="checkbox"
                  checked={allSelected}
                  ref={(el) => {
                    if (el) el.indeterminate = selected.size > 0 && !allSelected;
                  }}
                  onChange={onToggleAll}
                  disabled={jobs.length === 0}
                  aria-label="Select all loaded jobs"
                  className="size-4 accent-zinc-900 dark:accent-zinc-100"
                />
              </th>
              <ColumnHeading>
                <span className="sr-only">Output</span>
              </ColumnHeading>
              <ColumnHeading>Status</ColumnHeading>
              <ColumnHeading>Tool</ColumnHeading>
              <ColumnHeading>Model</ColumnHeading>
              <ColumnHeading>Prompt or input</ColumnHeading>
              <ColumnHeading className="text-right">
                Cost <span className="font-normal">(credits)</span>
              </ColumnHeading>
              <ColumnHeading>Created</ColumnHeading>
              <ColumnHeading className="pr-4 text-right">Run time</ColumnHeading>
            </tr>
          </thead>
          <tbody>
            {paddingTop > 0 && (
              // biome-ignore lint/a11y/noAriaHiddenOnFocusable: a spacer row standing for rows not rendered; nothing in it is focusable.
              <tr aria-hidden="true">
                <td colSpan={9} style={{ height: paddingTop, padding: 0 }} />
              </tr>
            )}
            {items.map((item) => {
              const job = jobs[item.index]!;
              return (
                <JobRow
                  key={job.id}
                  job={job}
                  rowIndex={item.index + 2}
                  selected={selected.has(job.id)}
                  open={job.id === openId}
                  now={isTerminalJobStatus(job.status) ? coarseNow : now}
                  modelName={modelNames.get(job.model) ?? null}
                  onToggle={onToggle}
                  onOpen={onOpen}
                />
              );
            })}
            {paddingBottom > 0 && (
              // biome-ignore lint/a11y/noAriaHiddenOnFocusable: a spacer row standing for rows not rendered; nothing in it is focusable.
              <tr aria-hidden="true">
                <td colSpan={9} style={{ height: paddingBottom, padding: 0 }} />
              </tr>
            )}
          </tbody>
        </table>
      </section>
      <div className="flex h-10 items-center gap-2 border-t border-zinc-200 px-4 text-xs text-zinc-600 dark:border-zinc-800 dark:text-zinc-400">
        {loadingMore ? (
          <>
            <Spinner className="size-3.5" /> Loading more jobs…
          </>
        ) : hasMore ? (
          <>
            {pluralize(jobs.length, 'job', 'jobs')} loaded; scroll for more, or{' '}
            <button
              type="button"
              onClick={onLoadMore}
              className="font-medium text-zinc-900 underline underline-offset-2 dark:text-zinc-100"
            >
              load more
            </button>
          </>
        ) : (
          <>All {pluralize(jobs.length, 'job', 'jobs')} shown</>
        )}
      </div>
    </div>
  );
}
