import {
  infiniteQueryOptions,
  type QueryClient,
  queryOptions,
  useMutation,
  useQueryClient,
} from '@tanstack/react-query';
import type { FileRecord } from '../../contract/files.ts';
import { api } from '../api/client.ts';
import { teamScoped } from '../team/current-team.ts';
import { type FileListFilters, listQueryOf } from './file-filters.ts';
import { folderKeys } from './folders.ts';
import { generationKeys } from './generation.ts';

/** Files per page of the browser (the server's maximum, so scrolling through thousands costs few requests). */
export const FILE_PAGE_SIZE = 100;

export const fileKeys = {
  get all() {
    return teamScoped(['files'] as const);
  },
  lists: () => teamScoped(['files', 'list'] as const),
  list: (filters: FileListFilters) => teamScoped(['files', 'list', filters] as const),
  details: () => teamScoped(['files', 'detail'] as const),
  detail: (id: string) => teamScoped(['files', 'detail', id] as const),
  lineage: (id: string) => teamScoped(['files', 'detail', id, 'lineage'] as const),
};

/** The file browser: newest first, a page at a time by cursor. */
export function filesQueryOptions(filters: FileListFilters) {
  return infiniteQueryOptions({
    queryKey: fileKeys.list(filters),
    queryFn: ({ pageParam }) =>
      api().listFiles({
        query: {
          ...listQueryOf(filters),
          limit: FILE_PAGE_SIZE,
          ...(pageParam ? { cursor: pageParam } : {}),
        },
      }),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.next_cursor,
    // Jobs add files at any time (their outputs): a list opened again asks again, unless just read.
    staleTime: 5_000,
  });
}

export function fileQueryOptions(id: string) {
  return queryOptions({
    queryKey: fileKeys.detail(id),
    queryFn: () => api().getFile({ params: { id } }),
  });
}

export function lineageQueryOptions(id: string) {
  return queryOptions({
    queryKey: fileKeys.lineage(id),
    queryFn: () => api().getFileLineage({ params: { id }, query: { depth: 5 } }),
    // Every run from a file grows its graph: each visit asks again.
    staleTime: 0,
  });
}

/**
 * After a file was added, renamed, moved or deleted: every list (and the folder counts, and the
 * playground's picker of files) is asked again; the file's own entry takes the answer at once.
 */
export function filesChanged(queryClient: QueryClient, file?: FileRecord): void {
  if (file) queryClient.setQueryData(fileKeys.detail(file.id), file);
  void queryClient.invalidateQueries({ queryKey: fileKeys.lists() });
  void queryClient.invalidateQueries({ queryKey: folderKeys.all });
  void queryClient.invalidateQueries({ queryKey: generationKeys.outputs });
}

export function useUpdateFile(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { name?: string; workspace_id?: string | null }) =>
      api().updateFile({ params: { id }, body }),
    onSuccess: (file) => filesChanged(queryClient, file),
  });
}

export function useDeleteFile(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api().deleteFile({ params: { id } }),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: fileKeys.detail(id), exact: true });
      filesChanged(queryClient);
      // Graphs that named the file now mark it deleted.
      void queryClient.invalidateQueries({ queryKey: fileKeys.details() });
    },
  });
}
