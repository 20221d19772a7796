import { useRouterState } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { takeArrivalBySignIn } from '../../../auth/auth.ts';

/**
 * A new page takes the focus its opener lost. The link or button that led to it (a template's card, a
 * file in the grid, Sign in) leaves with the old page and focus falls to the body, so a keyboard or
 * screen-reader user would start again from the top of the document. The main region (`#main`) takes it
 * instead, once the new page is drawn. Focus still on something (a sidebar link, a dialog that focused
 * itself) stays where it is, and so does a first load's (its Tab goes to the skip link first), unless a
 * sign-in has just led there (its Sign in button had focus). The page itself is not scrolled for it.
 */
export function useFocusOnNewPage(): void {
  // The page drawn, not the one being loaded: the old page is still on screen until it resolves.
  const pathname = useRouterState({ select: (state) => state.resolvedLocation?.pathname ?? null });
  const shown = useRef<string | null>(null);
  useEffect(() => {
    if (pathname === null) return;
    const newPage = shown.current !== null && shown.current !== pathname;
    shown.current = pathname;
    if (!takeArrivalBySignIn() && !newPage) return;
    const focused = document.activeElement;
    // Without scrolling: the page opens at its top, header in view. Focusing the main region scrolled it
    // to the top of the screen, the 64 px header above it out of view on a phone.
    if (focused === null || focused === document.body)
      document.getElementById('main')?.focus({ preventScroll: true });
  }, [pathname]);
}
