import { useId, useLayoutEffect, useRef, useState } from 'react';

/** Within this many pixels of the bottom counts as at the bottom (sub-pixel scrolling, rounding). */
const STUCK_SLACK_PX = 16;

/**
 * The tail of the provider's log, as the job's updates bring it: plain text (never HTML), following the
 * newest line unless the person scrolled up to read, and never taking focus. Open while the job runs.
 */
export function ProviderLog({ logs, provider, active }: { logs: string; provider: string; active: boolean }) {
  const ref = useRef<HTMLElement>(null);
  const stuck = useRef(true);
  const labelId = useId();
  // Open when first shown for a job under way; after that it stays as the person left it (a job
  // finishing does not fold away the lines they are reading).
  const [openAtFirst] = useState(active);

  // Before paint, so a new line never shows a frame away from the bottom.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the log's text is what moves the bottom.
  useLayoutEffect(() => {
    const el = ref.current;
    if (el && stuck.current) el.scrollTop = el.scrollHeight;
  }, [logs]);

  return (
    <details
      open={openAtFirst}
      className="mb-6 rounded-xl border border-zinc-200 bg-white text-sm dark:border-zinc-800 dark:bg-zinc-900"
      onToggle={(event) => {
        // Opened again: show the newest lines.
        const el = ref.current;
        if (event.currentTarget.open && el) {
          stuck.current = true;
          el.scrollTop = el.scrollHeight;
        }
      }}
    >
      <summary id={labelId} className="cursor-pointer px-4 py-2.5 font-medium">
        Provider log <span className="font-normal text-zinc-600 dark:text-zinc-400">({provider})</span>
      </summary>
      {/* A region, not a live log: lines arriving every few seconds are not read out over everything else. */}
      <section
        ref={ref}
        aria-labelledby={labelId}
        // Scrollable, so reachable by keyboard; it takes focus only when someone moves it there.
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be focusable to scroll by keyboard.
        tabIndex={0}
        onScroll={(event) => {
          const el = event.currentTarget;
          stuck.current = el.scrollHeight - el.scrollTop - el.clientHeight <= STUCK_SLACK_PX;
        }}
        className="max-h-72 overflow-auto border-t border-zinc-200 bg-zinc-50 px-4 py-3 dark:border-zinc-800 dark:bg-zinc-950"
      >
        <pre className="font-mono text-xs leading-relaxed whitespace-pre-wrap break-words text-zinc-800 dark:text-zinc-200">
          {logs}
        </pre>
      </section>
    </details>
  );
}
