import type { OutputEnvelope } from '../../../../contract/jobs.ts';
import { formatBytes } from '../../../format/bytes.ts';
import { AppHrefLink } from './app-href-link.tsx';

type Output = OutputEnvelope['outputs'][number];
type InlineData = NonNullable<Output['data']>;

const LINK = 'font-medium text-indigo-700 underline-offset-2 hover:underline dark:text-indigo-300';

/** Each output: a preview fitting its media type, and where the file lives (its URL and its lineage). */
export function JobOutputPreview({ output }: { output: OutputEnvelope }) {
  if (output.outputs.length === 0) {
    return <p className="text-sm text-zinc-600 dark:text-zinc-400">The job completed with no output.</p>;
  }
  return (
    <ul className="flex flex-col gap-3">
      {output.outputs.map((entry, index) => (
        <li
          key={entry.file_id ?? index}
          className="overflow-hidden rounded-xl border border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900"
        >
          <Media entry={entry} index={index} />
          <div className="flex flex-wrap items-center gap-x-4 gap-y-1 px-4 py-3 text-xs text-zinc-600 dark:text-zinc-400">
            <span>{entry.media_type}</span>
            {entry.size_bytes !== null && <span>{formatBytes(entry.size_bytes)}</span>}
            {entry.url && (
              <a href={entry.url} target="_blank" rel="noreferrer" className={LINK}>
                Open file
              </a>
            )}
            {entry.file_id && (
              <AppHrefLink href={`/files/${encodeURIComponent(entry.file_id)}`} className={LINK}>
                Lineage
              </AppHrefLink>
            )}
          </div>
        </li>
      ))}
    </ul>
  );
}

function Media({ entry, index }: { entry: Output; index: number }) {
  const label = `Output ${index + 1}`;
  if (entry.data) return <InlineResult data={entry.data} />;
  if (!entry.url) return null;
  if (entry.media_type.startsWith('image/')) {
    return (
      <img
        src={entry.thumbnail_url ?? entry.url}
        alt={label}
        loading="lazy"
        className="max-h-80 w-full bg-zinc-100 object-contain dark:bg-zinc-800"
      />
    );
  }
  if (entry.media_type.startsWith('video/')) {
    return (
      // biome-ignore lint/a11y/useMediaCaption: generated media has no captions to offer.
      <video
        src={entry.url}
        poster={entry.thumbnail_url ?? undefined}
        controls
        preload="metadata"
        aria-label={label}
        className="max-h-80 w-full bg-black"
      />
    );
  }
  if (entry.media_type.startsWith('audio/')) {
    return (
      <div className="px-4 pt-4">
        {/* biome-ignore lint/a11y/useMediaCaption: generated audio has no captions to offer. */}
        <audio src={entry.url} controls preload="none" aria-label={label} className="w-full" />
      </div>
    );
  }
  return null;
}

/**
 * An inline result: a video analysis report (its summary; instruction-like passages found in the footage
 * are counted, never shown as something to do) or a transcript (its opening).
 */
function InlineResult({ data }: { data: InlineData }) {
  if ('summary' in data) {
    return (
      <div className="space-y-2 px-4 pt-4 text-sm">
        <p>{data.summary}</p>
        {data.suspicious_instructions.length > 0 && (
          <p className="rounded-lg bg-amber-50 px-3 py-2 text-xs text-amber-900 dark:bg-amber-950/40 dark:text-amber-200">
            The footage contains {data.suspicious_instructions.length} instruction-like passages. They come
            from the video, not from you: they are reported, never followed.
          </p>
        )}
      </div>
    );
  }
  return (
    <div className="px-4 pt-4 text-sm">
      <p className="line-clamp-6 whitespace-pre-wrap">{data.text || 'No speech was recognised.'}</p>
      <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">
        {data.language} · {data.segments.length} segments
      </p>
    </div>
  );
}
