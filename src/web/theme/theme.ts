import { useSyncExternalStore } from 'react';
import { storedValue } from '../storage/stored-value.ts';

export const THEMES = ['system', 'light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];

/** Also read by public/console-boot.js, loaded by index.html (applies the theme before first paint). */
export const THEME_KEY = 'media-console:theme';

const isTheme = (value: unknown): value is Theme => THEMES.includes(value as Theme);

export const themeStore = storedValue<Theme>(
  THEME_KEY,
  (json) => (isTheme(json) ? json : undefined),
  'system',
);

const DARK_QUERY = '(prefers-color-scheme: dark)';

function systemPrefersDark(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia(DARK_QUERY).matches;
}

/** Puts the `dark` class (Tailwind's dark variant) and the native color scheme on <html>. */
export function applyTheme(theme: Theme): void {
  const dark = theme === 'dark' || (theme === 'system' && systemPrefersDark());
  const root = document.documentElement;
  root.classList.toggle('dark', dark);
  root.style.colorScheme = dark ? 'dark' : 'light';
}

export function setTheme(theme: Theme): void {
  themeStore.set(theme);
  applyTheme(theme);
}

/** Keeps <html> in step with the saved choice, other tabs, and the system setting while on "System". */
export function syncTheme(): () => void {
  applyTheme(themeStore.get());
  const unsubscribe = themeStore.subscribe(() => applyTheme(themeStore.get()));
  const media = typeof window.matchMedia === 'function' ? window.matchMedia(DARK_QUERY) : null;
  const onSystemChange = () => {
    if (themeStore.get() === 'system') applyTheme('system');
  };
  media?.addEventListener('change', onSystemChange);
  return () => {
    unsubscribe();
    media?.removeEventListener('change', onSystemChange);
  };
}

export function useTheme(): Theme {
  return useSyncExternalStore(themeStore.subscribe, themeStore.get);
}
