import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { FILE_ARCHIVE_MAX_FILES } from '../../../../contract/files.ts';
import { Button } from '../../../components/button.tsx';
import { ConfirmDialog, errorMessage } from '../../../components/confirm-dialog.tsx';
import { formatBytes } from '../../../format/bytes.ts';
import { pluralize } from '../../../format/words.ts';
import { foldersQueryOptions, useCreateFolder } from '../../../queries/folders.ts';
import { inputClasses } from '../../../schema-form/fields/input-classes.ts';
import { type BulkOutcome, deleteFiles, downloadZip, moveFiles } from './bulk-file-actions.ts';
import type { FileSelection } from './use-file-selection.ts';

const NOT_IN_A_FOLDER = '';
/** The folder choice that makes a new folder for the selection. */
const NEW_FOLDER = 'new';

/**
 * What can be done to the selected files at once: move them into a folder (or out of one), download them
 * as one zip, delete them (asked first). Each ends with one sentence saying what happened, kept until the
 * next action.
 */
export function SelectionBar({
  selection,
  total,
  listName,
  outcome,
  onOutcome,
}: {
  selection: FileSelection;
  /** How many files are listed (for "Select all"). */
  total: number;
  /** What the list is (a folder's name), for the zip's name. */
  listName: string | undefined;
  outcome: BulkOutcome | null;
  onOutcome: (outcome: BulkOutcome) => void;
}) {
  const queryClient = useQueryClient();
  const folders = useQuery(foldersQueryOptions());
  const folderFieldId = useId();
  const [folderId, setFolderId] = useState<string>(NOT_IN_A_FOLDER);
  const [newName, setNewName] = useState('');
  const newNameId = useId();
  const createFolder = useCreateFolder();
  const [busy, setBusy] = useState<'move' | 'zip' | 'delete' | null>(null);
  const [confirming, setConfirming] = useState(false);
  const files = selection.files;
  const count = files.length;

  const run = async (kind: 'move' | 'zip' | 'delete', action: () => Promise<BulkOutcome>) => {
    setBusy(kind);
    try {
      onOutcome(await action());
      if (kind !== 'zip') selection.clear();
    } catch (error) {
      onOutcome({ message: errorMessage(error), tone: 'error' });
    } finally {
      setBusy(null);
      setConfirming(false);
    }
  };
  const folder = folders.data?.find((f) => f.id === folderId) ?? null;
  const making = folderId === NEW_FOLDER;
  /** Into the chosen folder; a new one is made first, so the files are added to a folder made for them. */
  const move = async () => {
    if (!making) return moveFiles(queryClient, files, folder);
    const made = await createFolder.mutateAsync(newName.trim());
    setFolderId(made.id);
    setNewName('');
    return moveFiles(queryClient, files, made);
  };
  const tooMany = count > FILE_ARCHIVE_MAX_FILES;

  return (
    <div className="flex flex-col gap-2">
      {count > 0 && (
        <div
          role="toolbar"
          aria-label="Selected files"
          // Escape from any of its controls lets go of the selection (as from a file's checkbox).
          onKeyDown={(event) => {
            if (event.key === 'Escape' && !confirming) selection.clear();
          }}
          className="flex flex-wrap items-end gap-2 rounded-lg border border-indigo-200 bg-indigo-50 px-3 py-2 dark:border-indigo-900/60 dark:bg-indigo-950/40"
        >
          <p
            className="mr-auto self-center text-sm font-medium text-indigo-900 dark:text-indigo-100"
            aria-live="polite"
          >
            {pluralize(count, 'file', 'files')} selected
            <span className="font-normal text-indigo-800/80 dark:text-indigo-200/80">
              {' '}
              · {formatBytes(files.reduce((sum, f) => sum + f.size_bytes, 0))}
            </span>
          </p>
          <div className="flex items-end gap-1.5">
            <div className="flex flex-col gap-0.5">
              <label
                htmlFor={folderFieldId}
                className="text-xs font-medium text-indigo-900 dark:text-indigo-100"
              >
                Folder
              </label>
              <select
                id={folderFieldId}
                className={inputClasses(false, 'h-8 text-sm')}
                value={folderId}
                onChange={(event) => setFolderId(event.target.value)}
              >
                <option value={NOT_IN_A_FOLDER}>Not in a folder</option>
                {folders.data?.map((f) => (
                  <option key={f.id} value={f.id}>
                    {f.name}
                  </option>
                ))}
                <option value={NEW_FOLDER}>New folder…</option>
              </select>
            </div>
            {making && (
              <div className="flex flex-col gap-0.5">
                <label
                  htmlFor={newNameId}
                  className="text-xs font-medium text-indigo-900 dark:text-indigo-100"
                >
                  New folder name
                </label>
                <input
                  id={newNameId}
                  className={inputClasses(false, 'h-8 text-sm')}
                  value={newName}
                  maxLength={100}
                  onChange={(event) => setNewName(event.target.value)}
                />
              </div>
            )}
            <Button
              variant="secondary"
              size="sm"
              pending={busy === 'move'}
              disabled={busy !== null || (making && !newName.trim())}
              onClick={() => void run('move', move)}
            >
              {making ? 'Add to the new folder' : folder ? `Move into ${folder.name}` : 'Take out of folders'}
            </Button>
          </div>
          <Button
            variant="secondary"
            size="sm"
            pending={busy === 'zip'}
            disabled={busy !== null || tooMany}
            title={tooMany ? `A zip takes at most ${FILE_ARCHIVE_MAX_FILES} files.` : undefined}
            onClick={() => void run('zip', () => downloadZip(files, zipName(listName)))}
          >
            Download as zip
          </Button>
          <Button variant="secondary" size="sm" disabled={busy !== null} onClick={() => setConfirming(true)}>
            Delete…
          </Button>
          <Button variant="ghost" size="sm" onClick={selection.clear}>
            Clear selection
          </Button>
        </div>
      )}
      {count === 0 && total > 0 && (
        <Button variant="ghost" size="sm" className="self-start" onClick={selection.selectAll}>
          Select all {pluralize(total, 'file', 'files')} shown
        </Button>
      )}
      {outcome && (
        <p
          role={outcome.tone === 'error' ? 'alert' : 'status'}
          className={
            outcome.tone === 'error'
              ? 'text-sm text-red-700 dark:text-red-400'
              : 'text-sm text-emerald-700 dark:text-emerald-400'
          }
        >
          {outcome.message}
        </p>
      )}
      {confirming && (
        <ConfirmDialog
          title={`Delete ${pluralize(count, 'file', 'files')}?`}
          confirmLabel={`Delete ${pluralize(count, 'file', 'files')}`}
          danger
          pending={busy === 'delete'}
          onConfirm={() => void run('delete', () => deleteFiles(queryClient, files))}
          onClose={() => setConfirming(false)}
        >
          <p>
            Their bytes go and their links stop working; lineage keeps them, struck through. This cannot be
            undone.
          </p>
          <ul className="max-h-40 list-disc overflow-auto pl-5">
            {files.slice(0, 20).map((f) => (
              <li key={f.id} className="truncate">
                {f.name}
              </li>
            ))}
            {count > 20 && <li>and {pluralize(count - 20, 'other', 'others')}</li>}
          </ul>
        </ConfirmDialog>
      )}
    </div>
  );
}

/** The zip's name: the folder's, else "files" with today's date. */
function zipName(folderName: string | undefined): string {
  return (folderName ?? `files-${new Date().toISOString().slice(0, 10)}`).replace(/[\\/\0]/g, '-');
}
