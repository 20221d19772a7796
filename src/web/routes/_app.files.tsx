import { createFileRoute } from '@tanstack/react-router';
import { FilesSearch, fileListFilters } from '../queries/file-filters.ts';
import { filesQueryOptions } from '../queries/files.ts';
import { foldersQueryOptions } from '../queries/folders.ts';
import { FilesPage } from './-components/files/files-page.tsx';

/**
 * The file browser. The selected folder, the filters and the view live in the URL; a file opens on
 * its own page at /files/<file_id>.
 */
export const Route = createFileRoute('/_app/files')({
  validateSearch: FilesSearch,
  loaderDeps: ({ search }) => fileListFilters(search),
  loader: ({ context: { queryClient }, deps }) => {
    // The sidebar shows its own loading and error states: the files need not wait for it.
    void queryClient.prefetchQuery(foldersQueryOptions());
    return queryClient.ensureInfiniteQueryData(filesQueryOptions(deps));
  },
  component: FilesPage,
});
