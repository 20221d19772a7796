import { type RefObject, useEffect } from 'react';

/**
 * Opens a <dialog> as modal while the component is mounted: showModal() keeps focus inside and makes
 * the page behind inert. Focus moves to the first `[data-autofocus]` (else the first control that is
 * not `[data-close]`) and goes back, when the dialog leaves, to what had it before; if that is gone
 * (a revoked key's row, a job row scrolled out), the page's main region takes it.
 */
export function useModal(ref: RefObject<HTMLDialogElement | null>): void {
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const returnTo = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    // jsdom has no showModal; there the dialog is simply open.
    if (typeof dialog.showModal === 'function' && !dialog.open) dialog.showModal();
    else dialog.setAttribute('open', '');
    const first =
      dialog.querySelector<HTMLElement>('[data-autofocus]') ??
      dialog.querySelector<HTMLElement>('input, select, textarea, button:not([data-close])');
    first?.focus();
    return () => {
      if (dialog.open && typeof dialog.close === 'function') dialog.close();
      if (returnTo?.isConnected) returnTo.focus();
      else document.getElementById('main')?.focus();
    };
  }, [ref]);
}
