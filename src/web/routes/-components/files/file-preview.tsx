import { useState } from 'react';
import type { FileRecord } from '../../../../contract/files.ts';
import { Button } from '../../../components/button.tsx';
import { familyOf } from './file-kind.ts';

const ZOOMS = [1, 1.5, 2, 3, 4] as const;

/** The file itself: an image with zoom, an audio or video player, or a note for other types. */
export function FilePreview({ file }: { file: FileRecord }) {
  const family = familyOf(file.media_type);
  if (family === 'image') return <ZoomableImage file={file} />;
  const frame = 'w-full rounded-xl border border-zinc-200 bg-black dark:border-zinc-800';
  if (family === 'video') {
    return (
      // biome-ignore lint/a11y/useMediaCaption: people's own media has no captions to offer.
      <video
        src={file.url}
        controls
        preload="metadata"
        poster={file.thumbnail_url ?? undefined}
        className={frame}
        aria-label={file.name}
      />
    );
  }
  if (family === 'audio') {
    return (
      <div className="flex flex-col gap-3 rounded-xl border border-zinc-200 bg-white p-4 dark:border-zinc-800 dark:bg-zinc-900">
        {file.thumbnail_url && (
          <img src={file.thumbnail_url} alt="" className="h-24 w-full rounded object-cover" />
        )}
        {/* biome-ignore lint/a11y/useMediaCaption: people's own media has no captions to offer. */}
        <audio src={file.url} controls preload="metadata" className="w-full" aria-label={file.name} />
      </div>
    );
  }
  return (
    <p className="rounded-xl border border-dashed border-zinc-300 p-8 text-center text-sm text-zinc-600 dark:border-zinc-700 dark:text-zinc-400">
      No preview for {file.media_type}. Download it to open it.
    </p>
  );
}

/** Fits the frame at 1x; zooming in scrolls within the frame (drag the scrollbars or use the keys). */
function ZoomableImage({ file }: { file: FileRecord }) {
  const [zoom, setZoom] = useState<number>(1);
  const index = ZOOMS.indexOf(zoom as (typeof ZOOMS)[number]);
  return (
    <figure className="flex flex-col gap-2">
      <section
        className="max-h-[32rem] overflow-auto rounded-xl border border-zinc-200 bg-[repeating-conic-gradient(#f4f4f5_0_25%,#fff_0_50%)] bg-[length:16px_16px] dark:border-zinc-800 dark:bg-[repeating-conic-gradient(#27272a_0_25%,#18181b_0_50%)]"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a zoomed image scrolls; the keyboard needs to reach it.
        tabIndex={0}
        aria-label={`${file.name} at ${zoom * 100}%`}
      >
        <img
          src={file.url}
          alt={file.name}
          className="mx-auto block max-w-none"
          style={{ width: `${zoom * 100}%` }}
        />
      </section>
      <figcaption className="flex items-center gap-2 text-xs text-zinc-600 dark:text-zinc-400">
        <Button
          variant="secondary"
          size="sm"
          disabled={index <= 0}
          onClick={() => setZoom(ZOOMS[index - 1] ?? 1)}
          aria-label="Zoom out"
        >
          −
        </Button>
        <span aria-live="polite" className="w-12 text-center tabular-nums">
          {zoom * 100}%
        </span>
        <Button
          variant="secondary"
          size="sm"
          disabled={index >= ZOOMS.length - 1}
          onClick={() => setZoom(ZOOMS[index + 1] ?? zoom)}
          aria-label="Zoom in"
        >
          +
        </Button>
        {zoom !== 1 && (
          <Button variant="ghost" size="sm" onClick={() => setZoom(1)}>
            Fit
          </Button>
        )}
      </figcaption>
    </figure>
  );
}
