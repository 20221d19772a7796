import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Alert } from '../../../components/alert.tsx';
import { cx } from '../../../components/cx.ts';
import { Spinner } from '../../../components/spinner.tsx';
import { formatRelativeTime } from '../../../format/time.ts';
import { type ReusableOutput, recentOutputsQueryOptions } from '../../../queries/generation.ts';

const KINDS = [
  { key: 'all', label: 'All' },
  { key: 'image', label: 'Images' },
  { key: 'video', label: 'Videos' },
  { key: 'audio', label: 'Audio' },
] as const;
type Kind = (typeof KINDS)[number]['key'];

function fileName(url: string): string {
  try {
    return decodeURIComponent(new URL(url).pathname.split('/').pop() || url);
  } catch {
    return url;
  }
}

/** Outputs of the person's recent jobs, to use as the input of this run. */
export function OutputPicker({
  onPick,
  initialKind = 'all',
}: {
  onPick: (url: string) => void;
  initialKind?: Kind;
}) {
  const [kind, setKind] = useState<Kind>(initialKind);
  const { data, isPending, isError, error } = useQuery(recentOutputsQueryOptions());
  const shown = (data ?? []).filter((o) => kind === 'all' || o.mediaType.startsWith(`${kind}/`));

  return (
    <div className="rounded-xl border border-zinc-200 bg-white p-3 dark:border-zinc-800 dark:bg-zinc-900">
      <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm font-medium">Your recent outputs</p>
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
      {isPending && (
        <p role="status" className="flex items-center gap-2 py-4 text-sm text-zinc-600 dark:text-zinc-400">
          <Spinner /> Loading your outputs…
        </p>
      )}
      {isError && <Alert tone="error">Could not load your outputs: {error.message}</Alert>}
      {data && shown.length === 0 && (
        <p className="py-4 text-sm text-zinc-600 dark:text-zinc-400">
          No {kind === 'all' ? 'outputs' : KINDS.find((k) => k.key === kind)?.label.toLowerCase()} yet. Run a
          job, or paste a URL.
        </p>
      )}
      {shown.length > 0 && (
        <ul className="grid max-h-72 grid-cols-2 gap-2 overflow-y-auto sm:grid-cols-3">
          {shown.map((output) => (
            <li key={`${output.jobId}-${output.url}`}>
              <OutputTile output={output} onPick={onPick} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function OutputTile({ output, onPick }: { output: ReusableOutput; onPick: (url: string) => void }) {
  const name = fileName(output.url);
  const preview = output.thumbnailUrl ?? (output.mediaType.startsWith('image/') ? output.url : null);
  return (
    <button
      type="button"
      onClick={() => onPick(output.url)}
      aria-label={`Use ${name} from ${output.model}, ${formatRelativeTime(output.createdAt)}`}
      className="flex w-full flex-col overflow-hidden rounded-lg border border-zinc-200 text-left hover:border-zinc-400 dark:border-zinc-700 dark:hover:border-zinc-500"
    >
      <span className="grid aspect-video w-full place-items-center bg-zinc-100 text-xs text-zinc-500 dark:bg-zinc-800 dark:text-zinc-400">
        {preview ? (
          <img src={preview} alt="" loading="lazy" className="h-full w-full object-cover" />
        ) : (
          output.mediaType.split('/')[0]
        )}
      </span>
      <span className="truncate px-2 py-1 text-xs">{name}</span>
      <span className="truncate px-2 pb-1 text-[11px] text-zinc-500 dark:text-zinc-400">
        {output.model} · {formatRelativeTime(output.createdAt)}
      </span>
    </button>
  );
}
