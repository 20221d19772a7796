import { useState, useSyncExternalStore } from 'react';
import type { UploadItem } from './use-upload-queue.ts';

type Updater = (current: UploadItem[]) => UploadItem[];

/** The rows of an upload queue, kept outside React so they can outlive the component showing them. */
export interface UploadRows {
  get: () => UploadItem[];
  update: (updater: Updater) => void;
  subscribe: (listener: () => void) => () => void;
}

export function createUploadRows(): UploadRows {
  let rows: UploadItem[] = [];
  const listeners = new Set<() => void>();
  return {
    get: () => rows,
    update: (updater) => {
      rows = updater(rows);
      for (const listener of listeners) listener();
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/**
 * The Files page's uploads: they go on when the person opens a file or another page meanwhile, so
 * their rows are kept for the page's next visit rather than dropped with it.
 */
export const filesPageUploads = createUploadRows();

/** Rows from `shared` when given, else rows of this component's own. */
export function useUploadRows(shared: UploadRows | undefined): [UploadItem[], (updater: Updater) => void] {
  const [own] = useState(createUploadRows);
  const rows = shared ?? own;
  const items = useSyncExternalStore(rows.subscribe, rows.get, rows.get);
  return [items, rows.update];
}
