/*
 * A page's code (a route chunk) that fails to download. TanStack Router answers that by reloading the
 * whole document once, assuming a new deployment renamed the chunk; during an outage that reload lands
 * on the browser's own error page and takes the console down with it. The console instead shows the
 * failure in the page, keeps the shell, and reloads only once the server answers again.
 */

/** Chromium, Firefox and Safari's messages for a dynamic import that could not be fetched. */
export function isChunkLoadError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return /^(Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS)/.test(
    error.message,
  );
}

/**
 * Stops the router's reload for chunks that fail to load. Vite reports every failed chunk with a
 * `vite:preloadError` event before the router sees the error; marking it as "already reloaded for" (the
 * router's own once-per-error guard, keyed by the message) leaves the error to the route's error
 * component.
 */
export function keepShellOnChunkFailure(target: Window = window): void {
  target.addEventListener('vite:preloadError', (event) => {
    const error = (event as Event & { payload?: unknown }).payload;
    if (error instanceof Error) target.sessionStorage.setItem(`tanstack_router_reload:${error.message}`, '1');
  });
}

/** After a chunk failed: when the server answers again, a fresh document gets the current chunks. */
export async function reloadWhenServerAnswers(): Promise<boolean> {
  try {
    const response = await fetch(`${window.location.origin}/`, { cache: 'no-store' });
    if (!response.ok) return false;
  } catch {
    return false;
  }
  window.location.reload();
  return true;
}
