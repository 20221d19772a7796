import type { Job } from '../../../../contract/jobs.ts';
import { cx } from '../../../components/cx.ts';

/** Small outline pictures for outputs that have no picture of their own, drawn in the text colour. */
const ICONS = {
  // A note: speech and music.
  audio: 'M8 14.5V5l8-1.5V13M8 14.5a2 2 0 1 1-4 0 2 2 0 0 1 4 0zM16 13a2 2 0 1 1-4 0 2 2 0 0 1 4 0z',
  // A page with lines: a transcript or an analysis report.
  text: 'M5.5 3.5h6l3 3v10h-9v-13zM8 9.5h4.5M8 12.5h4.5',
  // A frame: a video without a poster yet.
  video: 'M3.5 5.5h10v9h-10v-9zM13.5 9l3-2v6l-3-2',
} as const;

function Icon({ name }: { name: keyof typeof ICONS }) {
  return (
    <svg
      viewBox="0 0 20 20"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.5"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      className="size-5"
    >
      <path d={ICONS[name]} />
    </svg>
  );
}

/** What a job's first output looks like, small: an image, a video's poster frame, else an icon of its kind. */
export function JobThumb({ job, className }: { job: Job; className?: string }) {
  const first = job.output?.outputs[0];
  const family = first?.media_type.split('/')[0];
  const picture = first?.thumbnail_url ?? (family === 'image' && first?.url ? first.url : null);
  return (
    <div
      className={cx(
        'grid size-10 shrink-0 place-items-center overflow-hidden rounded-md bg-zinc-100 text-zinc-600 dark:bg-zinc-800 dark:text-zinc-300',
        className,
      )}
    >
      {picture ? (
        <img src={picture} alt="" loading="lazy" decoding="async" className="size-full object-cover" />
      ) : first?.data ? (
        <Icon name="text" />
      ) : family === 'audio' ? (
        <Icon name="audio" />
      ) : family === 'video' ? (
        <Icon name="video" />
      ) : null}
    </div>
  );
}
