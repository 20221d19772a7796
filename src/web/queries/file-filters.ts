import { z } from 'zod';
import { NONE } from '../../contract/common.ts';
import { FILE_ORIGINS } from '../../contract/files.ts';

export const FILE_KINDS = ['image', 'video', 'audio'] as const;
export type FileKind = (typeof FILE_KINDS)[number];
export const FILE_VIEWS = ['grid', 'list'] as const;

/**
 * Search params of /files: the selected folder (a folder id, `none` for files outside any folder, absent
 * for all), the filters and the view. A bad value is dropped, not an error, so an old link still opens.
 */
export const FilesSearch = z.object({
  folder: z
    .union([z.literal(NONE), z.uuid().transform((id) => id.toLowerCase())])
    .optional()
    .catch(undefined),
  type: z.enum(FILE_KINDS).optional().catch(undefined),
  origin: z.enum(FILE_ORIGINS).optional().catch(undefined),
  q: z.string().trim().max(200).optional().catch(undefined),
  view: z.enum(FILE_VIEWS).optional().catch(undefined),
});
export type FilesSearch = z.output<typeof FilesSearch>;

/** What the list asks the server for; equal filters make equal query keys. */
export interface FileListFilters {
  folder?: string;
  type?: FileKind;
  origin?: (typeof FILE_ORIGINS)[number];
  q?: string;
}

export function fileListFilters(search: FilesSearch): FileListFilters {
  const filters: FileListFilters = {};
  if (search.folder) filters.folder = search.folder;
  if (search.type) filters.type = search.type;
  if (search.origin) filters.origin = search.origin;
  const q = search.q?.trim();
  if (q) filters.q = q;
  return filters;
}

/** The `GET /v2/files` query of a filter set. */
export function listQueryOf(filters: FileListFilters) {
  return {
    ...(filters.folder ? { folder: filters.folder } : {}),
    ...(filters.type ? { media_type: `${filters.type}/*` } : {}),
    ...(filters.origin ? { origin: filters.origin } : {}),
    ...(filters.q ? { q: filters.q } : {}),
  };
}

export function hasFilters(filters: FileListFilters): boolean {
  return Boolean(filters.type || filters.origin || filters.q);
}
