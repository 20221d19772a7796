/// <reference lib="webworker" />
import { hexOf } from './hex.ts';

/**
 * Hashes a File off the main thread, so a 200 MB file does not freeze the page. The worker reads the
 * bytes itself (a File crosses to a worker without copying) and answers `sha256:<hex>`.
 */
self.onmessage = async (event: MessageEvent<{ id: number; file: Blob }>) => {
  const { id, file } = event.data;
  try {
    const digest = await crypto.subtle.digest('SHA-256', await file.arrayBuffer());
    self.postMessage({ id, hash: `sha256:${hexOf(digest)}` });
  } catch (error) {
    self.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
};
