import { useRouterState } from '@tanstack/react-router';
import { type RefObject, useEffect, useRef, useState } from 'react';

export interface MainMenu {
  open: boolean;
  toggle: () => void;
  buttonRef: RefObject<HTMLButtonElement | null>;
  panelRef: RefObject<HTMLDivElement | null>;
}

/**
 * The navigation as a menu on small screens: open by its button, closed by navigating, Escape (focus back
 * on the button) or a click outside. From lg on the navigation is a sidebar and the button is hidden.
 */
export function useMainMenu(): MainMenu {
  const [open, setOpen] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  const href = useRouterState({ select: (state) => state.location.href });

  // Any navigation, from the menu or not, closes it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on each new location on purpose.
  useEffect(() => setOpen(false), [href]);

  useEffect(() => {
    if (!open) return;
    // Into the panel, so Tab moves through the sections next rather than past the header first.
    panelRef.current?.querySelector<HTMLElement>('a[href]')?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      buttonRef.current?.focus();
    };
    const onPointer = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!panelRef.current?.contains(target) && !buttonRef.current?.contains(target)) setOpen(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, [open]);

  return { open, toggle: () => setOpen((value) => !value), buttonRef, panelRef };
}

export function MainMenuButton({ menu, controls }: { menu: MainMenu; controls: string }) {
  return (
    <button
      ref={menu.buttonRef}
      type="button"
      aria-expanded={menu.open}
      aria-controls={controls}
      onClick={menu.toggle}
      className="grid size-10 place-items-center rounded-lg text-zinc-700 hover:bg-zinc-100 lg:hidden dark:text-zinc-300 dark:hover:bg-zinc-800"
    >
      <span className="sr-only">Menu</span>
      <svg aria-hidden="true" viewBox="0 0 20 20" className="size-5" fill="none" stroke="currentColor">
        {menu.open ? (
          <path d="M5 5l10 10M15 5 5 15" strokeWidth="1.6" strokeLinecap="round" />
        ) : (
          <path d="M3.5 6h13M3.5 10h13M3.5 14h13" strokeWidth="1.6" strokeLinecap="round" />
        )}
      </svg>
    </button>
  );
}
