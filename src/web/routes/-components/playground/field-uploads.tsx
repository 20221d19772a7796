import { useEffect, useRef } from 'react';
import { UploadList } from '../../../uploads/upload-list.tsx';
import { useUploadQueue } from '../../../uploads/use-upload-queue.ts';

interface FieldUploadsProps {
  /** Files chosen or dropped on the field and not handed over yet (some before this code was here). */
  files: readonly File[];
  /** These files are in the queue now: the field stops holding them. */
  onTaken: (files: readonly File[]) => void;
  /** Called with the stored file's URL, once per uploaded file (or the file that already had its bytes). */
  onUploaded: (url: string) => void;
}

/**
 * A field's uploads, through the same path as the Files page (hash in a worker, upload session, direct
 * or proxied PUT; up to 200 MB, a progress bar each). Loaded by UploadControl when a file comes near.
 */
export function FieldUploads({ files, onTaken, onUploaded }: FieldUploadsProps) {
  const uploads = useUploadQueue({
    onFinished: (item) => {
      if (item.file) onUploaded(item.file.url);
    },
  });
  // Each batch is queued once, even when an effect runs twice (React's strict mode).
  const taken = useRef<readonly File[] | null>(null);
  const { add } = uploads;

  useEffect(() => {
    if (files.length === 0 || taken.current === files) return;
    taken.current = files;
    add(files);
    onTaken(files);
  }, [files, add, onTaken]);

  return (
    <UploadList items={uploads.items.filter((item) => item.status !== 'done')} onDismiss={uploads.dismiss} />
  );
}
