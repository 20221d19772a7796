import { Link } from '@tanstack/react-router';
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
}: {
  items: readonly UploadItem[];
  onDismiss: (key: number) => void;
  /** Name links to the file's page (the Files page); the playground shows plain names. */
  linkFiles?: boolean;
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
            {item.status === 'duplicate' && (
              <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">
                Nothing was sent: these bytes are already stored{item.file ? ` as ${item.file.name}` : ''}.
              </p>
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
