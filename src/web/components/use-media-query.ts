import { useSyncExternalStore } from 'react';

const matches = (query: string) =>
  // Without matchMedia (jsdom in unit tests) no query matches.
  typeof window.matchMedia === 'function' && window.matchMedia(query).matches;

/** Whether a CSS media query matches now, re-rendering when that changes (a rotated phone, a resized window). */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      if (typeof window.matchMedia !== 'function') return () => {};
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    () => matches(query),
    () => false,
  );
}

/** Phones, held upright (the layout's `md` breakpoint): cards instead of tables, folded filters. */
export const PHONE = '(max-width: 767.98px)';
