import { useQuery } from '@tanstack/react-query';
import { lazy, type ReactNode, Suspense, useCallback, useState } from 'react';
import { buttonClasses } from '../../../components/button.tsx';
import { cx } from '../../../components/cx.ts';
import { LoadingNote } from '../../../components/loading-note.tsx';
import { uploadSupportQueryOptions } from '../../../queries/generation.ts';
import { DropZone } from '../../../uploads/drop-zone.tsx';

// The upload machinery (hashing, sessions, progress rows) is not part of the playground's first load:
// it comes when a file might: the pointer on Upload, the button focused, a file dragged over the field.
const FieldUploads = lazy(() => import('./field-uploads.tsx').then((m) => ({ default: m.FieldUploads })));

interface UploadControlProps {
  /** Called with the stored file's URL, once per uploaded file (or the file that already had its bytes). */
  onUploaded: (url: string) => void;
  multiple?: boolean;
  accept?: string;
  children: ReactNode;
}

/**
 * Upload and drag-and-drop for an input field. Offered only when the server has upload sessions (found
 * in its OpenAPI document): elsewhere the field takes URLs and picks only. The button and the drop zone
 * are here from the first paint; a file chosen or dropped before the machinery arrives waits here and
 * is handed over once it has.
 */
export function UploadControl({ onUploaded, multiple = false, accept, children }: UploadControlProps) {
  const { data: supported } = useQuery(uploadSupportQueryOptions());
  const [wanted, setWanted] = useState(false);
  const [waiting, setWaiting] = useState<readonly File[]>([]);
  const want = () => setWanted(true);
  const send = (files: readonly File[]) => {
    if (files.length === 0) return;
    setWaiting((current) => [...current, ...(multiple ? files : files.slice(0, 1))]);
    setWanted(true);
  };
  // Files are only ever appended: the ones handed over are the first ones.
  const taken = useCallback(
    (files: readonly File[]) => setWaiting((current) => current.slice(files.length)),
    [],
  );

  if (!supported) return <>{children}</>;

  return (
    <DropZone onFiles={send} onFileDrag={want}>
      {children}
      <div className="flex flex-wrap items-center gap-2 text-xs text-zinc-600 dark:text-zinc-400">
        <label
          onPointerEnter={want}
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
            onFocus={want}
            onChange={(event) => {
              send([...(event.target.files ?? [])]);
              event.target.value = '';
            }}
          />
          Upload…
        </label>
        <span>or drop {multiple ? 'files' : 'a file'} here (up to 200 MB each).</span>
      </div>
      {wanted && (
        <Suspense fallback={waiting.length > 0 && <LoadingNote size="xs">Preparing the upload…</LoadingNote>}>
          <FieldUploads files={waiting} onTaken={taken} onUploaded={onUploaded} />
        </Suspense>
      )}
    </DropZone>
  );
}
