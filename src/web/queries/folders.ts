import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { Folder } from '../../contract/folders.ts';
import { api } from '../api/client.ts';
import { teamScoped } from '../team/current-team.ts';

export const folderKeys = {
  get all() {
    return teamScoped(['folders'] as const);
  },
  list: () => teamScoped(['folders', 'list'] as const),
};

/** More folders than this is not a sidebar any more; the list stops there. */
const MAX_FOLDERS = 1000;

/** Every folder the person can see, oldest first (a sidebar keeps its order as folders are added). */
export function foldersQueryOptions() {
  return queryOptions({
    queryKey: folderKeys.list(),
    queryFn: async (): Promise<Folder[]> => {
      const folders: Folder[] = [];
      let cursor: string | null = null;
      do {
        const page = await api().listFolders({ query: { limit: 100, ...(cursor ? { cursor } : {}) } });
        folders.push(...page.data);
        cursor = page.next_cursor;
      } while (cursor && folders.length < MAX_FOLDERS);
      return folders.reverse();
    },
    staleTime: 30_000,
  });
}

export function useCreateFolder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (name: string) => (await api().createFolder({ body: { name } })).workspace,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: folderKeys.all }),
  });
}

export function useRenameFolder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, name }: { id: string; name: string }) =>
      (await api().updateFolder({ params: { id_or_slug: id }, body: { name } })).workspace,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: folderKeys.all }),
  });
}
