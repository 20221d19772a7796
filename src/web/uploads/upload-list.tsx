import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { Button } from '../components/button.tsx';
import { cx } from '../components/cx.ts';
import { formatBytes } from '../format/bytes.ts';
import type { UploadItem } from './use-upload-queue.ts';

const STATUS_TEXT: Record<UploadItem['status'], string> = {
  waiting: 'Waiting…',
  hashing: 'Checking…',
  starting: 'Starting…',
  uploading: 'Uploading',
  registering: 'Saving…',
  done: 'Uploaded',
  duplicate: 'Already in your files',
  failed: 'Failed',
};

function percentOf(item: UploadItem): number {
  if (item.status === 'done' || item.status === 'duplicate') return 100;
  if (item.size === 0) return 0;
  return Math.min(100, Math.round((item.sent / item.size) * 100));
}

/**
 * One row per upload: name, a progress bar while the bytes go, and how it ended. A duplicate says so
 * and links to the file that was already there.
 */
export function UploadList({
  items,
  onDismiss,
  linkFiles = true,
  folderName,
  onAddToFolder,
}: {
  items: readonly UploadItem[];
  onDismiss: (key: number) => void;
  /** Name links to the file's page (the Files page); the playground shows plain names. */
  linkFiles?: boolean;
  /** The name of the folder files are dropped into, by its id (for the offer to put a duplicate there). */
  folderName?: (folder: string) => string | undefined;
  /** Puts a duplicate's stored file into the folder its copy was dropped into. */
  onAddToFolder?: (item: UploadItem) => Promise<void>;
}) {
  if (items.length === 0) return null;
  return (
    <ul aria-label="Uploads" className="flex flex-col gap-2">
      {items.map((item) => {
        const percent = percentOf(item);
        const settled = item.status === 'done' || item.status === 'duplicate' || item.status === 'failed';
        return (
          <li
            key={item.key}
            className="rounded-lg border border-zinc-200 bg-white px-3 py-2 text-sm dark:border-zinc-800 dark:bg-zinc-900"
          >
            <div className="flex items-center gap-3">
              <span className="min-w-0 flex-1 truncate font-medium text-zinc-900 dark:text-zinc-100">
                {linkFiles && item.file ? (
                  <Link to="/files/$fileId" params={{ fileId: item.file.id }} className="hover:underline">
                    {item.name}
                  </Link>
                ) : (
                  item.name
                )}
              </span>
              <span className="text-xs text-zinc-500 tabular-nums dark:text-zinc-400">
                {formatBytes(item.size)}
              </span>
              <span
                className={cx(
                  'text-xs font-medium',
                  item.status === 'failed' && 'text-red-700 dark:text-red-400',
                  item.status === 'duplicate' && 'text-amber-700 dark:text-amber-300',
                  item.status === 'done' && 'text-emerald-700 dark:text-emerald-400',
                  !settled && 'text-zinc-600 dark:text-zinc-400',
                )}
              >
                {STATUS_TEXT[item.status]}
                {item.status === 'uploading' ? ` ${percent}%` : ''}
              </span>
              {settled && (
                <Button
                  variant="ghost"
                  size="sm"
                  onClick={() => onDismiss(item.key)}
                  aria-label={`Dismiss ${item.name}`}
                >
                  ×
                </Button>
              )}
            </div>
            {!settled && (
              <div
                role="progressbar"
                aria-label={`Uploading ${item.name}`}
                aria-valuemin={0}
                aria-valuemax={100}
                aria-valuenow={percent}
                className="mt-2 h-1.5 overflow-hidden rounded-full bg-zinc-100 dark:bg-zinc-800"
              >
                <div
                  className="h-full rounded-full bg-indigo-600 transition-[width] dark:bg-indigo-400"
                  style={{ width: `${percent}%` }}
                />
              </div>
            )}
            {item.status === 'duplicate' && item.file && (
              <DuplicateNote
                item={item as UploadItem & { file: NonNullable<UploadItem['file']> }}
                linkFiles={linkFiles}
                folderName={item.folder ? folderName?.(item.folder) : undefined}
                onAddToFolder={onAddToFolder}
              />
            )}
            {item.error && (
              <p role="alert" className="mt-1 text-xs text-red-700 dark:text-red-400">
                {item.error}
              </p>
            )}
          </li>
        );
      })}
    </ul>
  );
}

/**
 * What a duplicate is: the same bytes as another file of this drop, or as a file stored before; a link
 * to the one stored file; and when that file is not in the folder this one was dropped into, the offer to
 * put it there (a file lives in one folder: it moves).
 */
function DuplicateNote({
  item,
  linkFiles,
  folderName,
  onAddToFolder,
}: {
  item: UploadItem & { file: NonNullable<UploadItem['file']> };
  linkFiles: boolean;
  folderName: string | undefined;
  onAddToFolder: ((item: UploadItem) => Promise<void>) | undefined;
}) {
  const [state, setState] = useState<'idle' | 'pending' | 'failed'>('idle');
  const stored = item.file;
  const name = linkFiles ? (
    <Link
      to="/files/$fileId"
      params={{ fileId: stored.id }}
      className="font-medium underline underline-offset-2"
    >
      {stored.name}
    </Link>
  ) : (
    stored.name
  );
  const inFolder = item.folder !== undefined && stored.workspace_id === item.folder;
  const offer = item.folder !== undefined && !inFolder && onAddToFolder && folderName;
  const add = async () => {
    setState('pending');
    try {
      await onAddToFolder?.(item);
      setState('idle');
    } catch {
      setState('failed');
    }
  };
  return (
    <div className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-zinc-600 dark:text-zinc-400">
      <p>
        Nothing was sent:{' '}
        {item.sameAs ? (
          <>the same bytes as {item.sameAs} in this drop, stored once as </>
        ) : (
          <>these bytes are already stored as </>
        )}
        {name}
        {inFolder && folderName ? `, in ${folderName}` : ''}.
      </p>
      {offer && (
        <Button variant="secondary" size="sm" pending={state === 'pending'} onClick={() => void add()}>
          Move it into {folderName}
        </Button>
      )}
      {state === 'failed' && (
        <p role="alert" className="text-red-700 dark:text-red-400">
          It could not be moved. Try again, or move it from its page.
        </p>
      )}
    </div>
  );
}
