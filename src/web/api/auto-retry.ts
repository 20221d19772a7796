import { useEffect, useRef } from 'react';

/** While something is failing and the tab is visible, it is tried again this often. */
export const AUTO_RETRY_MS = 3_000;

/**
 * Calls `retry` every few seconds while `enabled` and the tab is visible, and at once when the person
 * comes back (window focus, tab shown, browser online again): an outage ends on screen within seconds
 * of the server's return, with no reload.
 */
export function useAutoRetry(retry: () => void, enabled: boolean, every: number = AUTO_RETRY_MS): void {
  const latest = useRef(retry);
  latest.current = retry;
  useEffect(() => {
    if (!enabled) return;
    const visible = () => document.visibilityState !== 'hidden';
    const now = () => {
      if (visible()) latest.current();
    };
    const timer = setInterval(now, every);
    window.addEventListener('focus', now);
    window.addEventListener('online', now);
    document.addEventListener('visibilitychange', now);
    return () => {
      clearInterval(timer);
      window.removeEventListener('focus', now);
      window.removeEventListener('online', now);
      document.removeEventListener('visibilitychange', now);
    };
  }, [enabled, every]);
}
