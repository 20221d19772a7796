import { hexOf } from './hex.ts';

type Pending = { resolve: (hash: string) => void; reject: (error: Error) => void };

let worker: Worker | null = null;
let nextId = 1;
const pending = new Map<number, Pending>();

/** One worker for the page, started with the first upload; it hashes files one after another. */
function hashWorker(): Worker {
  if (worker) return worker;
  const started = new Worker(new URL('./sha256.worker.ts', import.meta.url), { type: 'module' });
  started.onmessage = (event: MessageEvent<{ id: number; hash?: string; error?: string }>) => {
    const waiting = pending.get(event.data.id);
    if (!waiting) return;
    pending.delete(event.data.id);
    if (event.data.hash) waiting.resolve(event.data.hash);
    else waiting.reject(new Error(event.data.error ?? 'Hashing failed.'));
  };
  started.onerror = (event) => {
    for (const waiting of pending.values()) waiting.reject(new Error(event.message || 'Hashing failed.'));
    pending.clear();
    worker = null;
  };
  worker = started;
  return started;
}

/** The digest on this thread: correct, but it blocks the page while it runs. */
async function hashHere(file: Blob): Promise<string> {
  // A view made here: a buffer from another realm (jsdom's Blob) is refused by some digest implementations.
  const bytes = new Uint8Array(await file.arrayBuffer());
  return `sha256:${hexOf(await crypto.subtle.digest('SHA-256', bytes))}`;
}

/**
 * `sha256:<hex>` of a file, computed in a Web Worker. Where no worker can start (tests in jsdom, a
 * content policy refusing workers) it is computed on this thread instead.
 */
export async function hashFile(file: Blob): Promise<string> {
  if (typeof Worker === 'undefined') return hashHere(file);
  let started: Worker;
  try {
    started = hashWorker();
  } catch {
    return hashHere(file);
  }
  const id = nextId++;
  return new Promise<string>((resolve, reject) => {
    pending.set(id, { resolve, reject });
    started.postMessage({ id, file });
  });
}
