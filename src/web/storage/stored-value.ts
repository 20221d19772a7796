/** A value kept in localStorage as JSON, read through a parser, observable (also across tabs). */
export interface StoredValue<T> {
  get(): T;
  set(value: T): void;
  clear(): void;
  subscribe(listener: () => void): () => void;
}

function readRaw(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    // Storage can be disabled (privacy modes); the console then keeps nothing across reloads.
    return null;
  }
}

/**
 * What was stored, checked: the value, or undefined when it does not fit. A plain function rather than
 * a zod schema: the stores of the first screen (session, theme, server) must not need zod to load.
 */
export type ReadStored<T> = (json: unknown) => T | undefined;

/**
 * Reads are cached by the raw string, so `get()` returns the same object until the stored text
 * changes: `useSyncExternalStore` needs a stable snapshot. A value that no longer fits (older console,
 * hand edits) reads as the fallback.
 */
export function storedValue<T>(key: string, read: ReadStored<T>, fallback: T): StoredValue<T> {
  const listeners = new Set<() => void>();
  let cache: { raw: string | null; value: T } | undefined;

  function get(): T {
    const raw = readRaw(key);
    if (cache && cache.raw === raw) return cache.value;
    let value = fallback;
    if (raw !== null) {
      try {
        const parsed = read(JSON.parse(raw));
        if (parsed !== undefined) value = parsed;
      } catch {
        // not JSON: keep the fallback
      }
    }
    cache = { raw, value };
    return value;
  }

  function notify() {
    for (const listener of listeners) listener();
  }

  function write(raw: string | null) {
    try {
      if (raw === null) window.localStorage.removeItem(key);
      else window.localStorage.setItem(key, raw);
    } catch {
      // see readRaw
    }
    notify();
  }

  return {
    get,
    set: (value) => write(JSON.stringify(value)),
    clear: () => write(null),
    subscribe(listener) {
      listeners.add(listener);
      const onStorage = (event: StorageEvent) => {
        if (event.key === key || event.key === null) listener();
      };
      window.addEventListener('storage', onStorage);
      return () => {
        listeners.delete(listener);
        window.removeEventListener('storage', onStorage);
      };
    },
  };
}
