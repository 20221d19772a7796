import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useId, useState } from 'react';
import { ApiError } from '../../../../client/api-error.ts';
import type { FileRecord } from '../../../../contract/files.ts';
import { Alert } from '../../../components/alert.tsx';
import { Button, buttonClasses } from '../../../components/button.tsx';
import { showToast } from '../../../components/toast-store.ts';
import { useInPlaceEditor } from '../../../components/use-in-place-editor.ts';
import { useDeleteFile, useUpdateFile } from '../../../queries/files.ts';
import { foldersQueryOptions } from '../../../queries/folders.ts';
import { inputClasses } from '../../../schema-form/fields/input-classes.ts';
import { RenameFileForm } from './rename-file-form.tsx';

function messageOf(error: unknown): string {
  return error instanceof ApiError ? error.message : 'That did not work. Try again.';
}

/** Download, copy the URL, rename, move to a folder and delete (after a confirmation). */
export function FileActions({ file }: { file: FileRecord }) {
  const update = useUpdateFile(file.id);
  const editor = useInPlaceEditor<'name'>();
  const renameId = useId();
  return (
    <section aria-label="Actions" className="flex flex-col gap-3">
      <div className="flex flex-wrap gap-2">
        <a href={file.url} download={file.name} className={buttonClasses('secondary', 'sm')}>
          Download
        </a>
        <CopyUrl url={file.url} />
        {editor.editing === null && (
          <Button id={renameId} variant="secondary" size="sm" onClick={() => editor.open('name', renameId)}>
            Rename
          </Button>
        )}
      </div>
      {editor.editing === 'name' && (
        <RenameFileForm
          name={file.name}
          onCancel={editor.close}
          onSubmit={async (name) => {
            await update.mutateAsync({ name });
            editor.close();
          }}
        />
      )}
      <MoveToFolder file={file} />
      <DeleteFile file={file} />
    </section>
  );
}

function CopyUrl({ url }: { url: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <Button
      variant="secondary"
      size="sm"
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(url);
          setCopied(true);
          setTimeout(() => setCopied(false), 2000);
        } catch {
          showToast({ title: 'Could not copy', description: url, tone: 'error' });
        }
      }}
    >
      <span aria-live="polite">{copied ? 'Copied' : 'Copy URL'}</span>
    </Button>
  );
}

function MoveToFolder({ file }: { file: FileRecord }) {
  const id = useId();
  const folders = useQuery(foldersQueryOptions());
  const move = useUpdateFile(file.id);
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-xs font-medium text-zinc-600 dark:text-zinc-400">
        Folder
      </label>
      <select
        id={id}
        className={inputClasses(Boolean(move.error), 'h-9')}
        value={file.workspace_id ?? ''}
        disabled={move.isPending || folders.isPending}
        onChange={(event) => move.mutate({ workspace_id: event.target.value || null })}
      >
        <option value="">Not in a folder</option>
        {folders.data?.map((folder) => (
          <option key={folder.id} value={folder.id}>
            {folder.name}
          </option>
        ))}
      </select>
      {move.error && (
        <p role="alert" className="text-xs text-red-700 dark:text-red-400">
          {messageOf(move.error)}
        </p>
      )}
    </div>
  );
}

function DeleteFile({ file }: { file: FileRecord }) {
  const [confirming, setConfirming] = useState(false);
  const remove = useDeleteFile(file.id);
  const navigate = useNavigate();
  if (!confirming) {
    return (
      <Button
        variant="ghost"
        size="sm"
        className="self-start text-red-700 dark:text-red-400"
        onClick={() => setConfirming(true)}
      >
        Delete…
      </Button>
    );
  }
  return (
    <section
      aria-label="Confirm deletion"
      className="flex flex-col gap-2 rounded-lg border border-red-200 bg-red-50 p-3 dark:border-red-900/60 dark:bg-red-950/30"
    >
      <p className="text-sm text-red-900 dark:text-red-200">
        Delete {file.name} for good? Its URL stops working, so jobs and pages that use it lose it. Lineage
        keeps a note that it existed.
      </p>
      {remove.error && <Alert tone="error">{messageOf(remove.error)}</Alert>}
      <div className="flex gap-2">
        <Button
          variant="danger"
          size="sm"
          pending={remove.isPending}
          onClick={async () => {
            try {
              await remove.mutateAsync();
            } catch {
              return; // shown above, from the mutation's error
            }
            showToast({ title: `${file.name} was deleted`, tone: 'success' });
            await navigate({ to: '/files', search: file.workspace_id ? { folder: file.workspace_id } : {} });
          }}
        >
          Delete file
        </Button>
        <Button variant="secondary" size="sm" autoFocus onClick={() => setConfirming(false)}>
          Cancel
        </Button>
      </div>
    </section>
  );
}
