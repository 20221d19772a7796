import type { FileRecord } from '../../../../contract/files.ts';
import { cx } from '../../../components/cx.ts';
import { familyOf } from './file-kind.ts';

const THUMBLESS_MAX_BYTES = 2_000_000;
const LABELS = { image: 'IMG', video: 'VID', audio: 'AUD', other: 'FILE' } as const;

/** The file's thumbnail (images, video frames, audio waveforms), or its kind when there is none. */
export function FileThumb({ file, className }: { file: FileRecord; className?: string }) {
  const family = familyOf(file.media_type);
  // Without a thumbnail (not made yet), a small image stands in for itself; a big one is not fetched for a tile.
  const src =
    file.thumbnail_url ?? (family === 'image' && file.size_bytes <= THUMBLESS_MAX_BYTES ? file.url : null);
  return (
    <div
      className={cx(
        'grid place-items-center overflow-hidden bg-zinc-100 text-xs font-semibold text-zinc-500 dark:bg-zinc-800 dark:text-zinc-400',
        className,
      )}
    >
      {src ? (
        <img src={src} alt="" loading="lazy" decoding="async" className="size-full object-cover" />
      ) : (
        <span aria-hidden="true">{LABELS[family]}</span>
      )}
    </div>
  );
}
