import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { buttonClasses } from '../../../components/button.tsx';
import { cx } from '../../../components/cx.ts';
import { uploadSupportQueryOptions } from '../../../queries/generation.ts';
import { DropZone } from '../../../uploads/drop-zone.tsx';
import { UploadList } from '../../../uploads/upload-list.tsx';
import { useUploadQueue } from '../../../uploads/use-upload-queue.ts';

interface UploadControlProps {
  /** Called with the stored file's URL, once per uploaded file (or the file that already had its bytes). */
  onUploaded: (url: string) => void;
  multiple?: boolean;
  accept?: string;
  children: ReactNode;
}

/**
 * Upload and drag-and-drop for an input field, through the same upload path as the Files page (hash in
 * a worker, upload session, direct or proxied PUT; up to 200 MB, a progress bar each). Offered only when
 * the server has upload sessions (found in its OpenAPI document): elsewhere the field takes URLs and
 * picks only.
 */
export function UploadControl({ onUploaded, multiple = false, accept, children }: UploadControlProps) {
  const { data: supported } = useQuery(uploadSupportQueryOptions());
  const uploads = useUploadQueue({
    onFinished: (item) => {
      if (item.file) onUploaded(item.file.url);
    },
  });
  const send = (files: readonly File[]) => uploads.add(multiple ? files : files.slice(0, 1));

  if (!supported) return <>{children}</>;

  return (
    <DropZone onFiles={send}>
      {children}
      <div className="flex flex-wrap items-center gap-2 text-xs text-zinc-600 dark:text-zinc-400">
        <label
          className={cx(
            buttonClasses('secondary', 'sm'),
            'cursor-pointer has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-indigo-600',
          )}
        >
          <input
            type="file"
            multiple={multiple}
            accept={accept}
            className="sr-only"
            onChange={(event) => {
              send([...(event.target.files ?? [])]);
              event.target.value = '';
            }}
          />
          Upload…
        </label>
        <span>or drop {multiple ? 'files' : 'a file'} here (up to 200 MB each).</span>
      </div>
      <UploadList
        items={uploads.items.filter((item) => item.status !== 'done')}
        onDismiss={uploads.dismiss}
      />
    </DropZone>
  );
}
