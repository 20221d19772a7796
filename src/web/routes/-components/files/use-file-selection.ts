import { useCallback, useMemo, useRef, useState } from 'react';
import type { FileRecord } from '../../../../contract/files.ts';

export interface FileSelection {
  /** The selected files still listed, in the list's order. */
  files: FileRecord[];
  has: (id: string) => boolean;
  /**
   * A click or Space on a file's checkbox: toggles it; with Shift, every file from the last one toggled
   * to this one takes the last one's new state (as in a mail client).
   */
  toggle: (id: string, range: boolean) => void;
  selectAll: () => void;
  clear: () => void;
}

/** Which of the listed files are selected. Files that leave the list (deleted, filtered out) leave it too. */
export function useFileSelection(listed: readonly FileRecord[]): FileSelection {
  const [ids, setIds] = useState<ReadonlySet<string>>(() => new Set());
  const anchor = useRef<{ id: string; selected: boolean } | null>(null);

  const toggle = useCallback(
    (id: string, range: boolean) => {
      setIds((current) => {
        const next = new Set(current);
        const from = range && anchor.current ? listed.findIndex((f) => f.id === anchor.current!.id) : -1;
        const to = listed.findIndex((f) => f.id === id);
        if (from >= 0 && to >= 0) {
          const state = anchor.current!.selected;
          for (const file of listed.slice(Math.min(from, to), Math.max(from, to) + 1)) {
            if (state) next.add(file.id);
            else next.delete(file.id);
          }
          return next;
        }
        if (next.has(id)) next.delete(id);
        else next.add(id);
        anchor.current = { id, selected: next.has(id) };
        return next;
      });
    },
    [listed],
  );

  const selectAll = useCallback(() => setIds(new Set(listed.map((f) => f.id))), [listed]);
  const clear = useCallback(() => {
    anchor.current = null;
    setIds(new Set());
  }, []);
  const files = useMemo(() => listed.filter((f) => ids.has(f.id)), [listed, ids]);
  const has = useCallback((id: string) => ids.has(id), [ids]);
  return { files, has, toggle, selectAll, clear };
}
