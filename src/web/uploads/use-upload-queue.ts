import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef } from 'react';
import { ApiError } from '../../client/api-error.ts';
import type { FileRecord } from '../../contract/files.ts';
import { filesChanged } from '../queries/files.ts';
import { runLimited } from '../routes/-components/jobs/run-limited.ts';
import {
  type UploadDeps,
  type UploadOutcome,
  type UploadPhase,
  UploadRefused,
  uploadFile,
} from './upload-file.ts';
import { type UploadRows, useUploadRows } from './upload-rows.ts';

export type UploadStatus = 'waiting' | UploadPhase | 'done' | 'duplicate' | 'failed';

export interface UploadItem {
  key: number;
  name: string;
  size: number;
  status: UploadStatus;
  /** Bytes sent so far (uploading). */
  sent: number;
  file: FileRecord | null;
  error: string | null;
  /** A duplicate of another file of the same drop: that file's name. */
  sameAs?: string;
  /** The folder it was dropped into (id or slug), to offer a duplicate stored elsewhere a place in it. */
  folder?: string;
}

/** Row keys, unique across every queue of the page. */
let nextKey = 1;

/** Two uploads at once keep the connection busy without starving the page's own requests. */
const PARALLEL_UPLOADS = 2;

function messageOf(error: unknown, name: string): string {
  if (error instanceof UploadRefused) return error.message;
  if (error instanceof ApiError) return error.message;
  return `Could not upload ${name}.`;
}

/**
 * Uploads the files it is given (several at once, two at a time) and keeps one row per file with its
 * progress and outcome. Every finished file refreshes the file lists; `onFinished` hears of each one.
 */
export function useUploadQueue(options: {
  folder?: string;
  onFinished?: (item: UploadItem) => void;
  deps?: UploadDeps;
  /** Where the rows live; by default with the component (gone when it unmounts). */
  rows?: UploadRows;
}) {
  const queryClient = useQueryClient();
  const [items, setItems] = useUploadRows(options.rows);
  const latest = useRef(options);
  latest.current = options;

  const update = useCallback(
    (key: number, patch: Partial<UploadItem>) => {
      setItems((current) => current.map((item) => (item.key === key ? { ...item, ...patch } : item)));
    },
    [setItems],
  );

  const add = useCallback(
    (files: readonly File[]) => {
      const folder = latest.current.folder;
      const added = files.map((file) => ({
        file,
        item: {
          key: nextKey++,
          name: file.name,
          size: file.size,
          status: 'waiting' as const,
          sent: 0,
          file: null,
          error: null,
          ...(folder ? { folder } : {}),
        },
      }));
      setItems((current) => [...added.map((a) => a.item), ...current]);
      // The drop's uploads by hash: the same bytes dropped twice go once.
      const sameDrop = new Map<string, { name: string; outcome: Promise<UploadOutcome> }>();
      void runLimited(added, PARALLEL_UPLOADS, async ({ file, item }) => {
        let finished: UploadItem;
        try {
          const outcome = await uploadFile(
            file,
            {
              folder,
              onPhase: (status) => update(item.key, { status }),
              onProgress: (sent) => update(item.key, { sent }),
              inFlight: sameDrop,
            },
            latest.current.deps,
          );
          finished = {
            ...item,
            status: outcome.kind === 'duplicate' ? 'duplicate' : 'done',
            sent: item.size,
            file: outcome.file,
            ...(outcome.sameAs ? { sameAs: outcome.sameAs } : {}),
          };
          filesChanged(queryClient, outcome.file);
        } catch (error) {
          finished = { ...item, status: 'failed', error: messageOf(error, item.name) };
        }
        update(item.key, finished);
        latest.current.onFinished?.(finished);
      });
    },
    [queryClient, update, setItems],
  );

  const dismiss = useCallback(
    (key: number) => {
      setItems((current) => current.filter((item) => item.key !== key));
    },
    [setItems],
  );

  const clearFinished = useCallback(() => {
    setItems((current) => current.filter((item) => !['done', 'duplicate', 'failed'].includes(item.status)));
  }, [setItems]);

  /** A row's file changed after it settled (a duplicate moved into the drop's folder). */
  const replaceFile = useCallback((key: number, file: FileRecord) => update(key, { file }), [update]);

  return { items, add, dismiss, clearFinished, replaceFile };
}
