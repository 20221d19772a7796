import { type LiveState, wakeJobFeed } from '../../../queries/jobs-live.ts';

/** Whether the feed is live. Not a live region itself: every poll would be announced. */
export function LiveIndicator({ state, active }: { state: LiveState; active: boolean }) {
  if (state === 'failing') {
    return (
      <p className="flex items-center gap-2 text-xs font-medium text-amber-800 dark:text-amber-300">
        <span aria-hidden="true" className="size-2 rounded-full bg-amber-500" />
        Cannot reach the server; retrying every few seconds.
        <button
          type="button"
          onClick={wakeJobFeed}
          className="rounded px-1.5 py-0.5 font-semibold underline underline-offset-2 hover:bg-amber-100 dark:hover:bg-amber-950"
        >
          Retry now
        </button>
      </p>
    );
  }
  return (
    <p className="flex items-center gap-2 text-xs text-zinc-600 dark:text-zinc-400">
      <span
        aria-hidden="true"
        className={
          active
            ? 'size-2 animate-pulse rounded-full bg-emerald-500 motion-reduce:animate-none'
            : 'size-2 rounded-full bg-emerald-500'
        }
      />
      {active ? 'Live: updating every second' : 'Live'}
    </p>
  );
}
