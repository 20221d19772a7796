import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { useCallback, useMemo, useState } from 'react';
import { NONE } from '../../../../contract/values.ts';
import { api } from '../../../api/client.ts';
import { Button } from '../../../components/button.tsx';
import { EmptyState } from '../../../components/empty-state.tsx';
import { LoadFailed } from '../../../components/load-failed.tsx';
import { LoadingNote } from '../../../components/loading-note.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { useNavigatingSearch } from '../../../components/use-navigating-search.ts';
import { FilesSearch, fileListFilters, hasFilters } from '../../../queries/file-filters.ts';
import { filesChanged, filesQueryOptions } from '../../../queries/files.ts';
import { foldersQueryOptions } from '../../../queries/folders.ts';
import { DropZone } from '../../../uploads/drop-zone.tsx';
import { UploadList } from '../../../uploads/upload-list.tsx';
import { filesPageUploads } from '../../../uploads/upload-rows.ts';
import { type UploadItem, useUploadQueue } from '../../../uploads/use-upload-queue.ts';
import type { BulkOutcome } from './bulk-file-actions.ts';
import { FileCollection } from './file-collection.tsx';
import { FileFilterBar } from './file-filter-bar.tsx';
import { FolderSidebar } from './folder-sidebar.tsx';
import { SelectionBar } from './selection-bar.tsx';
import { UploadButton } from './upload-button.tsx';
import { useFileSelection } from './use-file-selection.ts';

const route = getRouteApi('/_app/files');

const isSettled = (item: UploadItem) => ['done', 'duplicate', 'failed'].includes(item.status);

/** The file browser: folders on the side; filters, uploads and the files (grid or list) beside them. */
export function FilesPage() {
  const search = route.useSearch();
  // The controls follow the URL being navigated to: they answer at once while the next list loads.
  const target = useNavigatingSearch(FilesSearch);
  const navigate = route.useNavigate();
  const filters = fileListFilters(search);
  const folders = useQuery(foldersQueryOptions());
  const queryClient = useQueryClient();
  const folder =
    search.folder && search.folder !== NONE ? folders.data?.find((f) => f.id === search.folder) : undefined;
  // The folder id from the URL, not the loaded list: an upload started while folders load still lands there.
  const uploads = useUploadQueue({
    folder: search.folder && search.folder !== NONE ? search.folder : undefined,
    rows: filesPageUploads,
  });

  const change = useCallback(
    (patch: Partial<FilesSearch>) =>
      void navigate({ search: (prev) => ({ ...prev, ...patch }), replace: true }),
    [navigate],
  );
  const where = folder ? `into ${folder.name}` : 'outside any folder';

  return (
    <>
      <PageHeader
        title="Files"
        description="Your uploads and everything your jobs made, in folders. Open a file to preview it, see its lineage and use it in the playground."
        actions={<UploadButton onFiles={uploads.add} />}
      />
      <div className="grid grid-cols-1 gap-6 md:grid-cols-[14rem_minmax(0,1fr)]">
        <FolderSidebar selected={target.folder} />
        <DropZone onFiles={uploads.add} className="min-w-0 gap-4">
          <h2 className="sr-only">
            {folder ? folder.name : search.folder === NONE ? 'Files not in a folder' : 'All files'}
          </h2>
          <FileFilterBar search={target} onChange={change} />
          <p className="text-xs text-zinc-500 dark:text-zinc-400">
            Drop files anywhere here or use Upload files (up to 200 MB each); they go {where}.
          </p>
          <UploadList
            items={uploads.items}
            onDismiss={uploads.dismiss}
            folderName={(id) => folders.data?.find((f) => f.id === id)?.name}
            onAddToFolder={async (item) => {
              if (!item.file || !item.folder) return;
              const moved = await api().updateFile({
                params: { id: item.file.id },
                body: { workspace_id: item.folder },
              });
              filesChanged(queryClient, moved);
              uploads.replaceFile(item.key, moved);
            }}
          />
          {uploads.items.filter(isSettled).length > 1 && (
            <Button variant="ghost" size="sm" className="self-start" onClick={uploads.clearFinished}>
              Clear finished uploads
            </Button>
          )}
          <FileResults
            key={JSON.stringify(filters)}
            search={search}
            listName={folder?.name}
            onUpload={uploads.add}
            onClear={change}
          />
        </DropZone>
      </div>
    </>
  );
}

function FileResults({
  search,
  listName,
  onUpload,
  onClear,
}: {
  search: FilesSearch;
  listName: string | undefined;
  onUpload: (files: File[]) => void;
  onClear: (patch: Partial<FilesSearch>) => void;
}) {
  const filters = fileListFilters(search);
  const query = useInfiniteQuery(filesQueryOptions(filters));
  const files = useMemo(() => query.data?.pages.flatMap((page) => page.data) ?? [], [query.data]);
  const loadMore = useCallback(() => void query.fetchNextPage(), [query.fetchNextPage]);
  // The selection belongs to this list: new filters (a new key) start a new one.
  const selection = useFileSelection(files);
  const [outcome, setOutcome] = useState<BulkOutcome | null>(null);

  if (query.isPending) {
    return <LoadingNote className="py-16">Loading files…</LoadingNote>;
  }
  if (query.isError) {
    return (
      <LoadFailed
        title="Your files could not be loaded"
        error={query.error}
        onRetry={() => void query.refetch()}
      />
    );
  }
  if (files.length === 0) {
    if (hasFilters(filters)) {
      return (
        <EmptyState
          title="No files match these filters"
          action={
            <Button
              variant="secondary"
              onClick={() =>
                onClear({ type: undefined, origin: undefined, q: undefined, from: undefined, to: undefined })
              }
            >
              Clear the filters
            </Button>
          }
        >
          Try other words, another type, origin or days.
        </EmptyState>
      );
    }
    return (
      <EmptyState
        title={filters.folder ? 'This folder is empty' : 'No files yet'}
        action={<UploadButton onFiles={onUpload} />}
      >
        Drop files here or upload them; what your jobs make appears here too.
      </EmptyState>
    );
  }
  return (
    <div className="flex flex-col gap-3">
      <SelectionBar
        selection={selection}
        total={files.length}
        listName={listName}
        outcome={outcome}
        onOutcome={setOutcome}
      />
      <FileCollection
        files={files}
        selection={selection}
        view={search.view ?? 'grid'}
        hasMore={query.hasNextPage}
        loadingMore={query.isFetchingNextPage}
        onLoadMore={loadMore}
      />
    </div>
  );
}
