import { Link } from '@tanstack/react-router';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef } from 'react';
import type { FileRecord } from '../../../../contract/files.ts';
import { cx } from '../../../components/cx.ts';
import { Spinner } from '../../../components/spinner.tsx';
import { useElementWidth } from '../../../components/use-element-width.ts';
import { formatBytes } from '../../../format/bytes.ts';
import { formatDuration } from '../../../format/duration.ts';
import { formatRelativeTime } from '../../../format/time.ts';
import { ORIGIN_LABELS } from './file-kind.ts';
import { FileThumb } from './file-thumb.tsx';
import type { FileSelection } from './use-file-selection.ts';

interface FileCollectionProps {
  files: readonly FileRecord[];
  /** Checkboxes to select files with (click, Shift+click, Space, Shift+Space). */
  selection?: FileSelection;
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
export function FileCollection({
  files,
  selection,
  view,
  hasMore,
  loadingMore,
  onLoadMore,
}: FileCollectionProps) {
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
      {view === 'list' && <ListHeader selectable={Boolean(selection)} />}
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
                {view === 'grid' ? (
                  <FileCard file={file} selected={selection?.has(file.id) ?? false} />
                ) : (
                  <FileRow
                    file={file}
                    selected={selection?.has(file.id) ?? false}
                    selectable={Boolean(selection)}
                  />
                )}
                {selection && <SelectBox file={file} view={view} selection={selection} />}
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

/**
 * A file's checkbox, beside its link (not inside: a control in a link is neither). Shift extends the
 * selection from the last file toggled; a click, Space or Shift+Space all arrive as a click.
 */
function SelectBox({
  file,
  view,
  selection,
}: {
  file: FileRecord;
  view: 'grid' | 'list';
  selection: FileSelection;
}) {
  const selected = selection.has(file.id);
  return (
    <input
      type="checkbox"
      aria-label={`Select ${file.name}`}
      checked={selected}
      onChange={() => {}}
      onClick={(event) => selection.toggle(file.id, event.shiftKey)}
      onKeyDown={(event) => {
        if (event.key === 'Escape') selection.clear();
      }}
      className={cx(
        'absolute size-4 cursor-pointer accent-indigo-600',
        view === 'grid' ? 'top-2 left-2 shadow' : 'top-1/2 left-2 -translate-y-1/2',
      )}
    />
  );
}

/** A generated file's prompt (its metadata), else how it arrived. */
function subtitleOf(file: FileRecord): string {
  return file.metadata.prompt ?? `${ORIGIN_LABELS[file.origin]} · ${formatBytes(file.size_bytes)}`;
}

/** "4.2 s", "3 min 05 s": the play time of a video or a sound. */
function durationOf(file: FileRecord): string | null {
  const seconds = file.metadata.duration_seconds;
  return seconds === undefined ? null : formatDuration(seconds * 1000);
}

function FileCard({ file, selected }: { file: FileRecord; selected: boolean }) {
  const duration = durationOf(file);
  return (
    <Link
      to="/files/$fileId"
      params={{ fileId: file.id }}
      className={cx(
        'group flex h-full flex-col overflow-hidden rounded-lg border hover:border-zinc-400 focus-visible:outline-2 focus-visible:outline-indigo-600 dark:hover:border-zinc-600',
        selected ? 'border-indigo-500 ring-2 ring-indigo-500/40' : 'border-zinc-200 dark:border-zinc-800',
      )}
    >
      <span className="relative">
        <FileThumb file={file} className="h-36 w-full" />
        {duration && (
          <span className="absolute right-1.5 bottom-1.5 rounded bg-black/70 px-1.5 py-0.5 text-[11px] font-medium text-white tabular-nums">
            {duration}
          </span>
        )}
      </span>
      <span className="flex min-w-0 flex-col px-2.5 py-1.5">
        <span className="truncate text-sm font-medium text-zinc-900 group-hover:underline dark:text-zinc-100">
          {file.name}
        </span>
        <span className="truncate text-xs text-zinc-500 dark:text-zinc-400" title={file.metadata.prompt}>
          {subtitleOf(file)}
        </span>
      </span>
    </Link>
  );
}

/**
 * The list's column names, over the same widths as the rows. Hidden from screen readers: each row is one
 * link that reads its own values (the play time says "Duration").
 */
function ListHeader({ selectable }: { selectable: boolean }) {
  const cell = 'text-xs font-medium text-zinc-500 dark:text-zinc-400';
  return (
    <div
      aria-hidden="true"
      className={cx(
        'flex h-8 items-center gap-3 border-b border-zinc-200 px-5 dark:border-zinc-800',
        selectable && 'pl-12',
      )}
    >
      <span className={cx(cell, 'w-10 shrink-0')} />
      <span className={cx(cell, 'flex-1')}>Name</span>
      <span className={cx(cell, 'hidden w-32 2xl:block')}>Type</span>
      <span className={cx(cell, 'hidden w-20 text-right sm:block')}>Duration</span>
      <span className={cx(cell, 'w-20 text-right')}>Size</span>
      <span className={cx(cell, 'hidden w-20 md:block')}>Origin</span>
      <span className={cx(cell, 'hidden w-28 text-right lg:block')}>Created</span>
    </div>
  );
}

function FileRow({
  file,
  selected,
  selectable,
}: {
  file: FileRecord;
  selected: boolean;
  selectable: boolean;
}) {
  return (
    <Link
      to="/files/$fileId"
      params={{ fileId: file.id }}
      className={cx(
        'flex h-full items-center gap-3 rounded-md border-b border-zinc-100 px-2 text-sm dark:border-zinc-800 hover:bg-zinc-50 focus-visible:outline-2 focus-visible:outline-indigo-600 dark:hover:bg-zinc-800/60',
        selectable && 'pl-9',
        selected && 'bg-indigo-50 dark:bg-indigo-950/40',
      )}
    >
      <FileThumb file={file} className="size-10 shrink-0 rounded" />
      <span className="flex min-w-0 flex-1 flex-col">
        <span className="truncate font-medium text-zinc-900 dark:text-zinc-100">{file.name}</span>
        {file.metadata.prompt && (
          <span className="truncate text-xs text-zinc-500 dark:text-zinc-400" title={file.metadata.prompt}>
            {file.metadata.prompt}
          </span>
        )}
      </span>
      <span className="hidden w-32 truncate text-xs text-zinc-500 2xl:block dark:text-zinc-400">
        {file.media_type}
      </span>
      <span className="hidden w-20 text-right text-xs text-zinc-500 tabular-nums sm:block dark:text-zinc-400">
        {durationOf(file) && (
          <>
            <span className="sr-only">Duration </span>
            {durationOf(file)}
          </>
        )}
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
