import { type ReactNode, useEffect, useRef, useState } from 'react';
import { cx } from '../components/cx.ts';

/**
 * Files dropped anywhere on the zone are handed over. The listeners are attached directly: a drop
 * target is a pointer convenience (an Upload button is the keyboard way), not a widget of its own.
 */
export function DropZone({
  onFiles,
  onFileDrag,
  children,
  className,
}: {
  onFiles: (files: File[]) => void;
  /** A file is dragged over the zone: a page can start loading what a drop needs. */
  onFileDrag?: () => void;
  children: ReactNode;
  className?: string;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const [dragging, setDragging] = useState(false);
  const onFilesRef = useRef(onFiles);
  onFilesRef.current = onFiles;
  const onFileDragRef = useRef(onFileDrag);
  onFileDragRef.current = onFileDrag;

  useEffect(() => {
    const zone = ref.current;
    if (!zone) return;
    const over = (event: DragEvent) => {
      if (!event.dataTransfer?.types.includes('Files')) return;
      event.preventDefault();
      setDragging(true);
      onFileDragRef.current?.();
    };
    const leave = (event: DragEvent) => {
      // Moving over a child fires leave on the parent: only leaving the zone itself counts.
      if (!zone.contains(event.relatedTarget as Node | null)) setDragging(false);
    };
    const drop = (event: DragEvent) => {
      event.preventDefault();
      setDragging(false);
      const files = [...(event.dataTransfer?.files ?? [])];
      if (files.length > 0) onFilesRef.current(files);
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
      className={cx(
        'flex flex-col gap-2 rounded-xl',
        dragging && 'ring-2 ring-indigo-500 ring-offset-2 dark:ring-offset-zinc-950',
        className,
      )}
    >
      {children}
    </div>
  );
}
