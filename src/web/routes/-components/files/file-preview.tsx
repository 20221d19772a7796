import { useState } from 'react';
import type { FileRecord } from '../../../../contract/files.ts';
import { Button } from '../../../components/button.tsx';
import { familyOf } from './file-kind.ts';

const ZOOMS = [1, 2, 4, 8] as const;
type Zoom = 'fit' | (typeof ZOOMS)[number];

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

/**
 * Fit shows the whole picture in the frame (never enlarged); the zoom steps show it at 1x, 2x... its
 * real pixels, scrolled within the frame (scrollbars, or the arrow keys once the frame has focus).
 */
function ZoomableImage({ file }: { file: FileRecord }) {
  const [zoom, setZoom] = useState<Zoom>('fit');
  const [natural, setNatural] = useState<number | null>(file.metadata.width ?? null);
  const index = zoom === 'fit' ? -1 : ZOOMS.indexOf(zoom);
  const label = zoom === 'fit' ? 'fit' : `${zoom * 100}%`;
  return (
    <figure className="flex flex-col gap-2">
      <section
        className="relative max-h-[32rem] overflow-auto rounded-xl border border-zinc-200 bg-[repeating-conic-gradient(#f4f4f5_0_25%,#fff_0_50%)] bg-[length:16px_16px] dark:border-zinc-800 dark:bg-[repeating-conic-gradient(#27272a_0_25%,#18181b_0_50%)]"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a zoomed image scrolls; the keyboard needs to reach it.
        tabIndex={0}
        aria-label={`${file.name}, ${label}`}
      >
        <img
          src={file.url}
          alt={file.name}
          onLoad={(event) => setNatural(event.currentTarget.naturalWidth || natural)}
          className="mx-auto block"
          style={
            zoom === 'fit' || !natural
              ? { maxWidth: '100%' }
              : { width: natural * zoom, maxWidth: 'none', imageRendering: zoom >= 2 ? 'pixelated' : 'auto' }
          }
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
          {zoom === 'fit' ? 'Fit' : label}
        </span>
        <Button
          variant="secondary"
          size="sm"
          disabled={index >= ZOOMS.length - 1}
          onClick={() => setZoom(ZOOMS[index + 1] ?? 1)}
          aria-label="Zoom in"
        >
          +
        </Button>
        {zoom !== 'fit' && (
          <Button variant="ghost" size="sm" onClick={() => setZoom('fit')}>
            Fit
          </Button>
        )}
      </figcaption>
    </figure>
  );
}
