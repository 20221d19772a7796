import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useId } from 'react';
import type { Folder } from '../../../../contract/folders.ts';
import { NONE } from '../../../../contract/values.ts';
import { Button } from '../../../components/button.tsx';
import { cx } from '../../../components/cx.ts';
import { Spinner } from '../../../components/spinner.tsx';
import { useInPlaceEditor } from '../../../components/use-in-place-editor.ts';
import { foldersQueryOptions, useCreateFolder, useRenameFolder } from '../../../queries/folders.ts';
import { FolderNameFields } from './folder-name-form.tsx';

const ITEM =
  'flex min-w-0 flex-1 items-center justify-between gap-2 rounded-lg px-2.5 py-1.5 text-sm focus-visible:outline-2 focus-visible:outline-indigo-600';
const SELECTED = 'bg-zinc-900 text-white dark:bg-zinc-100 dark:text-zinc-900';
const IDLE = 'text-zinc-700 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800';

/** The folders: all files, files outside any folder, then each folder; create and rename in place. */
export function FolderSidebar({ selected }: { selected: string | undefined }) {
  const folders = useQuery(foldersQueryOptions());
  const create = useCreateFolder();
  const rename = useRenameFolder();
  // One editor at a time: a new folder's name, or one folder's new name.
  const editor = useInPlaceEditor<'new' | Folder['id']>();
  const creating = editor.editing === 'new';
  const openerId = useId();

  return (
    <nav aria-label="Folders" className="flex flex-col gap-3">
      <div className="flex items-center justify-between">
        <h2 className="text-xs font-semibold tracking-wide text-zinc-500 uppercase dark:text-zinc-400">
          Folders
        </h2>
        {!creating && (
          <Button
            id={`${openerId}-new`}
            variant="ghost"
            size="sm"
            onClick={() => editor.open('new', `${openerId}-new`)}
          >
            New folder
          </Button>
        )}
      </div>
      {creating && (
        <FolderNameFields
          label="New folder name"
          submitLabel="Create folder"
          onCancel={editor.close}
          onSubmit={async (name) => {
            await create.mutateAsync(name);
            editor.close();
          }}
        />
      )}
      <ul className="flex flex-col gap-0.5">
        <FolderLink label="All files" folder={undefined} selected={selected} />
        <FolderLink label="Not in a folder" folder={NONE} selected={selected} />
        {folders.data?.map((folder) =>
          editor.editing === folder.id ? (
            <li key={folder.id} className="py-1">
              <FolderNameFields
                label={`Rename ${folder.name}`}
                submitLabel="Save"
                initial={folder.name}
                onCancel={editor.close}
                onSubmit={async (name) => {
                  await rename.mutateAsync({ id: folder.id, name });
                  editor.close();
                }}
              />
            </li>
          ) : (
            <FolderLink
              key={folder.id}
              label={folder.name}
              folder={folder.id}
              count={folder.file_count}
              selected={selected}
              renameId={`${openerId}-${folder.id}`}
              onRename={() => editor.open(folder.id, `${openerId}-${folder.id}`)}
            />
          ),
        )}
      </ul>
      {folders.isPending && (
        <p role="status" className="flex items-center gap-2 px-2.5 text-xs text-zinc-500 dark:text-zinc-400">
          <Spinner className="size-3.5" /> Loading folders…
        </p>
      )}
      {folders.isError && (
        <p role="alert" className="px-2.5 text-xs text-red-700 dark:text-red-400">
          Folders could not be loaded.{' '}
          <button type="button" className="underline" onClick={() => void folders.refetch()}>
            Retry now
          </button>
        </p>
      )}
      {folders.data?.length === 0 && !creating && (
        <p className="px-2.5 text-xs text-zinc-500 dark:text-zinc-400">
          No folders yet. Create one to keep a project's files together; uploads go into the selected folder.
        </p>
      )}
    </nav>
  );
}

function FolderLink({
  label,
  folder,
  count,
  selected,
  renameId,
  onRename,
}: {
  label: string;
  folder: Folder['id'] | typeof NONE | undefined;
  count?: number;
  selected: string | undefined;
  renameId?: string;
  onRename?: () => void;
}) {
  const current = folder === selected;
  return (
    <li className="group flex items-center gap-1">
      <Link
        to="/files"
        search={(prev) => ({ ...prev, folder })}
        aria-current={current ? 'page' : undefined}
        className={cx(ITEM, current ? SELECTED : IDLE)}
      >
        <span className="truncate">{label}</span>
        {count !== undefined && <span className="text-xs tabular-nums opacity-70">{count}</span>}
      </Link>
      {onRename && (
        <Button
          id={renameId}
          variant="ghost"
          size="sm"
          className="px-2"
          onClick={onRename}
          aria-label={`Rename folder ${label}`}
        >
          <span aria-hidden="true">✎</span>
        </Button>
      )}
    </li>
  );
}
