import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { type ReactNode, useEffect, useId, useState } from 'react';
import { Alert } from '../../../components/alert.tsx';
import { Button } from '../../../components/button.tsx';
import { cx } from '../../../components/cx.ts';
import { LoadingNote } from '../../../components/loading-note.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { formatBytes } from '../../../format/bytes.ts';
import { formatRelativeTime } from '../../../format/time.ts';
import {
  fileListSupportQueryOptions,
  type MediaKind,
  pickableFilesQueryOptions,
  recentOutputsQueryOptions,
} from '../../../queries/generation.ts';
import { inputClasses } from '../../../schema-form/fields/input-classes.ts';

const KINDS: ReadonlyArray<{ key: MediaKind; label: string }> = [
  { key: 'all', label: 'All' },
  { key: 'image', label: 'Images' },
  { key: 'video', label: 'Videos' },
  { key: 'audio', label: 'Audio' },
];

/** The search box asks the server once typing pauses, not on every key. */
const SEARCH_DELAY_MS = 250;

/** One file the picker offers, from the Files list or (on servers without it) a recent job's output. */
interface Pickable {
  key: string;
  url: string;
  name: string;
  mediaType: string;
  sizeBytes: number | null;
  thumbnailUrl: string | null;
  /** Where it came from: `Uploaded`, the model of the job... */
  source: string;
  createdAt: string;
}

function fileName(url: string): string {
  try {
    return decodeURIComponent(new URL(url).pathname.split('/').pop() || url);
  } catch {
    return url;
  }
}

function kindLabel(kind: MediaKind): string {
  return kind === 'all' ? 'files' : (KINDS.find((k) => k.key === kind)?.label.toLowerCase() ?? 'files');
}

function useDebounced(value: string, delay: number): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return settled;
}

/**
 * The person's Files (uploads and job outputs), to use as the input of this run: narrowed to a media
 * family, searched by name, a page at a time. Servers without `GET /v2/files` offer the outputs of
 * recent jobs instead.
 */
export function OutputPicker({
  onPick,
  initialKind = 'all',
}: {
  onPick: (url: string) => void;
  initialKind?: MediaKind;
}) {
  const [kind, setKind] = useState<MediaKind>(initialKind);
  const [search, setSearch] = useState('');
  const q = useDebounced(search.trim(), SEARCH_DELAY_MS);
  const support = useQuery(fileListSupportQueryOptions());
  const titleId = useId();
  // A server whose OpenAPI document cannot be read is treated as one without the Files list.
  const listsFiles = support.isPending ? null : support.data === true;

  return (
    <section
      aria-labelledby={titleId}
      className="rounded-xl border border-zinc-200 bg-white p-3 dark:border-zinc-800 dark:bg-zinc-900"
    >
      <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
        <h3 id={titleId} className="text-sm font-medium">
          {listsFiles === false ? 'Your recent outputs' : 'Your files'}
        </h3>
        <fieldset className="flex gap-1">
          <legend className="sr-only">Show</legend>
          {KINDS.map((k) => (
            <button
              key={k.key}
              type="button"
              aria-pressed={kind === k.key}
              onClick={() => setKind(k.key)}
              className={cx(
                'rounded-md px-2 py-0.5 text-xs font-medium',
                kind === k.key
                  ? 'bg-zinc-900 text-white dark:bg-zinc-100 dark:text-zinc-900'
                  : 'text-zinc-600 hover:bg-zinc-100 dark:text-zinc-400 dark:hover:bg-zinc-800',
              )}
            >
              {k.label}
            </button>
          ))}
        </fieldset>
      </div>
      <input
        type="search"
        aria-label="Search your files by name"
        placeholder="Search by name…"
        value={search}
        maxLength={200}
        onChange={(event) => setSearch(event.target.value)}
        onKeyDown={(event) => {
          // Enter here searches; it must not submit (and pay for) the run.
          if (event.key === 'Enter') event.preventDefault();
        }}
        className={inputClasses(false, 'mb-2 h-8 text-sm')}
      />
      {listsFiles === null && <Loading />}
      {listsFiles === true && <FilesList kind={kind} q={q} onPick={onPick} />}
      {listsFiles === false && <RecentOutputs kind={kind} q={q} onPick={onPick} />}
    </section>
  );
}

function Loading() {
  return <LoadingNote className="py-4">Loading your files…</LoadingNote>;
}

interface ListProps {
  kind: MediaKind;
  q: string;
  onPick: (url: string) => void;
}

/** `GET /v2/files`, filtered on the server, with "Load more" following `next_cursor`. */
function FilesList({ kind, q, onPick }: ListProps) {
  // While a new search loads, the last answer stays on screen rather than a spinner in its place.
  const files = useInfiniteQuery({
    ...pickableFilesQueryOptions({ kind, q }),
    placeholderData: keepPreviousData,
  });
  const shown: Pickable[] = (files.data?.pages ?? []).flatMap((page) =>
    page.data.map((file) => ({
      key: file.id,
      url: file.url,
      name: file.name,
      mediaType: file.media_type,
      sizeBytes: file.size_bytes,
      thumbnailUrl: file.thumbnail_url,
      source: file.origin === 'job' ? 'Output' : file.origin === 'upload' ? 'Uploaded' : 'Imported',
      createdAt: file.created_at,
    })),
  );
  if (files.isPending) return <Loading />;
  if (files.isError) return <Alert tone="error">Could not load your files: {files.error.message}</Alert>;
  return (
    <Tiles
      items={shown}
      onPick={onPick}
      empty={
        q
          ? `No ${kindLabel(kind)} named like “${q}”.`
          : `No ${kindLabel(kind)} yet. Upload one, or run a job.`
      }
      more={
        files.hasNextPage ? (
          <Button
            variant="secondary"
            size="sm"
            disabled={files.isFetchingNextPage}
            onClick={() => void files.fetchNextPage()}
          >
            {files.isFetchingNextPage ? <Spinner /> : null}
            Load more
          </Button>
        ) : null
      }
    />
  );
}

/** Servers without the Files list: the outputs of recent completed jobs, filtered here. */
function RecentOutputs({ kind, q, onPick }: ListProps) {
  const { data, isPending, isError, error } = useQuery(recentOutputsQueryOptions());
  if (isPending) return <Loading />;
  if (isError) return <Alert tone="error">Could not load your outputs: {error.message}</Alert>;
  const needle = q.toLowerCase();
  const shown = data
    .map((output) => ({
      key: `${output.jobId}-${output.url}`,
      url: output.url,
      name: fileName(output.url),
      mediaType: output.mediaType,
      sizeBytes: null,
      thumbnailUrl: output.thumbnailUrl,
      source: output.model,
      createdAt: output.createdAt,
    }))
    .filter(
      (o) => (kind === 'all' || o.mediaType.startsWith(`${kind}/`)) && o.name.toLowerCase().includes(needle),
    );
  const what = kind === 'all' ? 'outputs' : kindLabel(kind);
  return (
    <Tiles
      items={shown}
      onPick={onPick}
      empty={q ? `No ${what} named like “${q}”.` : `No ${what} yet. Run a job, or paste a URL.`}
      more={null}
    />
  );
}

function Tiles({
  items,
  onPick,
  empty,
  more,
}: {
  items: Pickable[];
  onPick: (url: string) => void;
  empty: string;
  more: ReactNode;
}) {
  if (items.length === 0) return <p className="py-4 text-sm text-zinc-600 dark:text-zinc-400">{empty}</p>;
  return (
    <div className="flex flex-col items-center gap-2">
      <ul className="grid max-h-72 w-full grid-cols-2 gap-2 overflow-y-auto sm:grid-cols-3">
        {items.map((item) => (
          <li key={item.key}>
            <Tile item={item} onPick={onPick} />
          </li>
        ))}
      </ul>
      {more}
    </div>
  );
}

function Tile({ item, onPick }: { item: Pickable; onPick: (url: string) => void }) {
  const preview = item.thumbnailUrl ?? (item.mediaType.startsWith('image/') ? item.url : null);
  const size = formatBytes(item.sizeBytes);
  const details = [item.mediaType, size].filter(Boolean).join(' · ');
  return (
    <button
      type="button"
      onClick={() => onPick(item.url)}
      aria-label={`Use ${item.name} (${details}), ${item.source}, ${formatRelativeTime(item.createdAt)}`}
      title={item.name}
      className="flex w-full flex-col overflow-hidden rounded-lg border border-zinc-200 text-left hover:border-zinc-400 dark:border-zinc-700 dark:hover:border-zinc-500"
    >
      <span className="grid aspect-video w-full place-items-center bg-zinc-100 text-xs text-zinc-500 dark:bg-zinc-800 dark:text-zinc-400">
        {preview ? (
          <img src={preview} alt="" loading="lazy" className="h-full w-full object-cover" />
        ) : (
          item.mediaType.split('/')[0]
        )}
      </span>
      <span className="truncate px-2 py-1 text-xs">{item.name}</span>
      <span className="truncate px-2 pb-1 text-[11px] text-zinc-500 dark:text-zinc-400">{details}</span>
      <span className="truncate px-2 pb-1 text-[11px] text-zinc-500 dark:text-zinc-400">
        {item.source} · {formatRelativeTime(item.createdAt)}
      </span>
    </button>
  );
}
