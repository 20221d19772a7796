import { useEffect, useRef, useState } from 'react';
import { cx } from './cx.ts';
import { dismissToast, type Toast, type ToastTone, useToasts } from './toast-store.ts';

/** How long a toast stays; hovering or focusing it holds it (WCAG 2.2.1: the reader sets the pace). */
const TOAST_MS = 6_000;

const TONES: Record<ToastTone, string> = {
  info: 'border-zinc-200 bg-white text-zinc-900 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100',
  success:
    'border-emerald-200 bg-white text-zinc-900 dark:border-emerald-900 dark:bg-zinc-900 dark:text-zinc-100',
  error: 'border-red-300 bg-white text-zinc-900 dark:border-red-900 dark:bg-zinc-900 dark:text-zinc-100',
};

const MARKS: Record<ToastTone, string> = {
  info: 'bg-zinc-400',
  success: 'bg-emerald-500',
  error: 'bg-red-500',
};

/**
 * The app's one toast region, mounted once in the shell. Both live regions are always in the page, so
 * screen readers announce what is added to them: errors assertively, everything else politely.
 */
export function ToastRegion() {
  const toasts = useToasts();
  const polite = toasts.filter((toast) => toast.tone !== 'error');
  const urgent = toasts.filter((toast) => toast.tone === 'error');
  return (
    <section
      aria-label="Notifications"
      className="pointer-events-none fixed right-4 bottom-4 z-50 flex w-[min(24rem,calc(100vw-2rem))] flex-col gap-2"
    >
      <div role="alert" aria-live="assertive" className="flex flex-col gap-2">
        {urgent.map((toast) => (
          <ToastCard key={toast.id} toast={toast} />
        ))}
      </div>
      <div role="status" aria-live="polite" className="flex flex-col gap-2">
        {polite.map((toast) => (
          <ToastCard key={toast.id} toast={toast} />
        ))}
      </div>
    </section>
  );
}

function ToastCard({ toast }: { toast: Toast }) {
  const [held, setHeld] = useState(false);
  const remaining = useRef(TOAST_MS);

  useEffect(() => {
    if (held) return;
    const started = Date.now();
    const timer = setTimeout(() => dismissToast(toast.id), remaining.current);
    return () => {
      clearTimeout(timer);
      remaining.current = Math.max(1_000, remaining.current - (Date.now() - started));
    };
  }, [held, toast.id]);

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: hover and focus only pause the timer; the buttons inside are the controls.
    <div
      onMouseEnter={() => setHeld(true)}
      onMouseLeave={() => setHeld(false)}
      onFocus={() => setHeld(true)}
      onBlur={() => setHeld(false)}
      className={cx(
        'pointer-events-auto flex items-start gap-3 rounded-xl border px-4 py-3 text-sm shadow-lg',
        TONES[toast.tone],
      )}
    >
      <span aria-hidden="true" className={cx('mt-1.5 size-2 shrink-0 rounded-full', MARKS[toast.tone])} />
      <div className="min-w-0 flex-1">
        <p className="font-medium">{toast.title}</p>
        {toast.description && (
          <p className="mt-0.5 break-words text-zinc-600 dark:text-zinc-400">{toast.description}</p>
        )}
        {toast.action && (
          <button
            type="button"
            onClick={() => {
              toast.action?.onClick();
              dismissToast(toast.id);
            }}
            className="mt-1.5 font-medium text-indigo-700 underline-offset-2 hover:underline dark:text-indigo-300"
          >
            {toast.action.label}
          </button>
        )}
      </div>
      <button
        type="button"
        onClick={() => dismissToast(toast.id)}
        className="-mt-0.5 -mr-1.5 grid size-7 shrink-0 place-items-center rounded-md text-zinc-500 hover:bg-zinc-100 hover:text-zinc-900 dark:text-zinc-400 dark:hover:bg-zinc-800 dark:hover:text-zinc-100"
      >
        <span className="sr-only">Dismiss notification</span>
        <svg aria-hidden="true" viewBox="0 0 16 16" className="size-4" fill="none" stroke="currentColor">
          <path d="M4 4l8 8M12 4l-8 8" strokeWidth="1.6" strokeLinecap="round" />
        </svg>
      </button>
    </div>
  );
}
