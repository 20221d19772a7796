import { Link } from '@tanstack/react-router';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { FileRecord } from '../../../../contract/files.ts';
import { Spinner } from '../../../components/spinner.tsx';
import { useElementWidth } from '../../../components/use-element-width.ts';
import { formatBytes } from '../../../format/bytes.ts';
import { formatRelativeTime } from '../../../format/time.ts';
import { ORIGIN_LABELS } from './file-kind.ts';
import { FileThumb } from './file-thumb.tsx';

interface FileCollectionProps {
  files: readonly FileRecord[];
  view: 'grid' | 'list';
  hasMore: boolean;
  loadingMore: boolean;
  onLoadMore: () => void;
}

/** Grid cards are at least this wide; the row holds as many as fit. */
const CARD_MIN_WIDTH = 176;
const GAP = 12;
const GRID_ROW_HEIGHT = 196 + GAP;
const LIST_ROW_HEIGHT = 56;
/** Rows within this distance of the end start loading the next page. */
const PREFETCH_ROWS = 8;

export function columnsFor(width: number, view: 'grid' | 'list'): number {
  if (view === 'list') return 1;
  return Math.max(1, Math.floor((width + GAP) / (CARD_MIN_WIDTH + GAP)));
}

/**
 * The files as a grid of cards or a list of rows, of which only the rows in view exist, so thousands
 * of files cost as much as a screenful. Nearing the end loads the next page.
 */
export function FileCollection({ files, view, hasMore, loadingMore, onLoadMore }: FileCollectionProps) {
  const scrollRef = useRef<HTMLElement>(null);
  const width = useElementWidth(scrollRef);
  const columns = columnsFor(width || CARD_MIN_WIDTH * 4, view);
  const rowCount = Math.ceil(files.length / columns);
  const rowHeight = view === 'grid' ? GRID_ROW_HEIGHT : LIST_ROW_HEIGHT;
  // The scroller's padding (p-3) is not room for cards.
  const inner = Math.max(CARD_MIN_WIDTH, (width || CARD_MIN_WIDTH * 4) - 2 * GAP);
  const cellWidth = (inner - (columns - 1) * GAP) / columns;
  const virtualizer = useVirtualizer({
    count: rowCount,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    overscan: 4,
  });
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new row height or column count invalidates the measured rows.
  useEffect(() => virtualizer.measure(), [virtualizer, rowHeight, columns]);
  const rows = virtualizer.getVirtualItems();
  const last = rows[rows.length - 1];

  useEffect(() => {
    if (last && hasMore && !loadingMore && last.index >= rowCount - PREFETCH_ROWS) onLoadMore();
  }, [last, hasMore, loadingMore, rowCount, onLoadMore]);

  return (
    <div className="overflow-hidden rounded-xl border border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900">
      <section
        ref={scrollRef}
        className="relative h-[calc(100dvh-22rem)] min-h-80 overflow-auto p-3"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scroll container must be reachable by keyboard.
        tabIndex={0}
        aria-label="Files"
      >
        <ul
          aria-label={`${files.length} files`}
          className="relative"
          style={{ height: virtualizer.getTotalSize() }}
        >
          {rows.flatMap((row) =>
            files.slice(row.index * columns, row.index * columns + columns).map((file, column) => (
              <li
                key={file.id}
                className="absolute"
                style={{
                  top: row.start,
                  left: view === 'grid' ? column * (cellWidth + GAP) : 0,
                  width: view === 'grid' ? cellWidth : '100%',
                  height: view === 'grid' ? rowHeight - GAP : rowHeight,
                }}
              >
                {view === 'grid' ? <FileCard file={file} /> : <FileRow file={file} />}
              </li>
            )),
          )}
        </ul>
      </section>
      <div className="flex h-10 items-center gap-2 border-t border-zinc-200 px-4 text-xs text-zinc-600 dark:border-zinc-800 dark:text-zinc-400">
        {loadingMore ? (
          <>
            <Spinner className="size-3.5" /> Loading more files…
          </>
        ) : (
          <span>
            {files.length} {files.length === 1 ? 'file' : 'files'}
            {hasMore ? ' loaded; scroll for more' : ''}
          </span>
        )}
      </div>
    </div>
  );
}

function FileCard({ file }: { file: FileRecord }) {
  return (
    <Link
      to="/files/$fileId"
      params={{ fileId: file.id }}
      className="group flex h-full flex-col overflow-hidden rounded-lg border border-zinc-200 hover:border-zinc-400 focus-visible:outline-2 focus-visible:outline-indigo-600 dark:border-zinc-800 dark:hover:border-zinc-600"
    >
      <FileThumb file={file} className="h-36 w-full" />
      <span className="flex min-w-0 flex-col px-2.5 py-1.5">
        <span className="truncate text-sm font-medium text-zinc-900 group-hover:underline dark:text-zinc-100">
          {file.name}
        </span>
        <span className="truncate text-xs text-zinc-500 dark:text-zinc-400">
          {ORIGIN_LABELS[file.origin]} · {formatBytes(file.size_bytes)}
        </span>
      </span>
    </Link>
  );
}

function FileRow({ file }: { file: FileRecord }) {
  return (
    <Link
      to="/files/$fileId"
      params={{ fileId: file.id }}
      className="flex h-full items-center gap-3 rounded-md border-b border-zinc-100 px-2 text-sm dark:border-zinc-800 hover:bg-zinc-50 focus-visible:outline-2 focus-visible:outline-indigo-600 dark:hover:bg-zinc-800/60"
    >
      <FileThumb file={file} className="size-10 shrink-0 rounded" />
      <span className="min-w-0 flex-1 truncate font-medium text-zinc-900 dark:text-zinc-100">
        {file.name}
      </span>
      <span className="hidden w-32 truncate text-xs text-zinc-500 sm:block dark:text-zinc-400">
        {file.media_type}
      </span>
      <span className="w-20 text-right text-xs text-zinc-500 tabular-nums dark:text-zinc-400">
        {formatBytes(file.size_bytes)}
      </span>
      <span className="hidden w-20 text-xs text-zinc-500 md:block dark:text-zinc-400">
        {ORIGIN_LABELS[file.origin]}
      </span>
      <span className="hidden w-28 text-right text-xs text-zinc-500 lg:block dark:text-zinc-400">
        {formatRelativeTime(file.created_at)}
      </span>
    </Link>
  );
}
