import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { ApiError } from '../../../../client/api-error.ts';
import { buttonClasses } from '../../../components/button.tsx';
import { cx } from '../../../components/cx.ts';
import { Spinner } from '../../../components/spinner.tsx';
import {
  DIRECT_UPLOAD_MAX_BYTES,
  uploadSupportQueryOptions,
  useUploadFile,
} from '../../../queries/generation.ts';

interface UploadControlProps {
  /** Called with the stored file's URL, once per uploaded file. */
  onUploaded: (url: string) => void;
  multiple?: boolean;
  accept?: string;
  children: ReactNode;
}

/**
 * Upload and drag-and-drop for an input field, offered only when the server takes direct uploads
 * (`POST /v2/files`, found in its OpenAPI document): elsewhere the field takes URLs and picks only.
 */
export function UploadControl({ onUploaded, multiple = false, accept, children }: UploadControlProps) {
  const { data: supported } = useQuery(uploadSupportQueryOptions());
  const upload = useUploadFile();
  const [problem, setProblem] = useState<string | null>(null);

  async function send(files: readonly File[]) {
    setProblem(null);
    for (const file of multiple ? files : files.slice(0, 1)) {
      if (file.size > DIRECT_UPLOAD_MAX_BYTES) {
        setProblem(
          `${file.name} is larger than 512 KiB, the most this server takes in one request. Use a URL.`,
        );
        continue;
      }
      try {
        const stored = await upload.mutateAsync(file);
        onUploaded(stored.url);
      } catch (error) {
        setProblem(error instanceof ApiError ? error.message : `Could not upload ${file.name}.`);
      }
    }
  }

  if (!supported) return <>{children}</>;

  return (
    <DropZone onFiles={(files) => void send(files)}>
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
              void send([...(event.target.files ?? [])]);
              event.target.value = '';
            }}
          />
          {upload.isPending ? <Spinner /> : null}
          Upload…
        </label>
        <span>or drop {multiple ? 'files' : 'a file'} here (up to 512 KiB each).</span>
      </div>
      {problem && (
        <p role="alert" className="text-xs font-medium text-red-700 dark:text-red-400">
          {problem}
        </p>
      )}
    </DropZone>
  );
}

/**
 * Files dropped anywhere on the field are uploaded. The listeners are attached directly: a drop
 * target is a pointer convenience (the Upload button is the keyboard way), not a widget of its own.
 */
function DropZone({ onFiles, children }: { onFiles: (files: File[]) => void; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const [dragging, setDragging] = useState(false);
  const onFilesRef = useRef(onFiles);
  onFilesRef.current = onFiles;

  useEffect(() => {
    const zone = ref.current;
    if (!zone) return;
    const over = (event: DragEvent) => {
      event.preventDefault();
      setDragging(true);
    };
    const leave = () => setDragging(false);
    const drop = (event: DragEvent) => {
      event.preventDefault();
      setDragging(false);
      onFilesRef.current([...(event.dataTransfer?.files ?? [])]);
    };
    zone.addEventListener('dragover', over);
    zone.addEventListener('dragleave', leave);
    zone.addEventListener('drop', drop);
    return () => {
      zone.removeEventListener('dragover', over);
      zone.removeEventListener('dragleave', leave);
      zone.removeEventListener('drop', drop);
    };
  }, []);

  return (
    <div
      ref={ref}
      className={cx('flex flex-col gap-2 rounded-xl', dragging && 'ring-2 ring-indigo-500 ring-offset-2')}
    >
      {children}
    </div>
  );
}
