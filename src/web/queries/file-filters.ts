import { FILE_ORIGINS } from '../../contract/values.ts';
import { LOCAL_DATE, localDayStart } from '../format/date-time.ts';
import { oneOf, type SearchOf, searchParams, text } from '../search-params/fields.ts';
import { folderParam } from '../search-params/folder.ts';

export const FILE_KINDS = ['image', 'video', 'audio'] as const;
export type FileKind = (typeof FILE_KINDS)[number];
export const FILE_VIEWS = ['grid', 'list'] as const;

/**
 * Search params of /files: the selected folder (a folder id, `none` for files outside any folder, absent
 * for all), the filters and the view. A bad value is dropped, not an error, so an old link still opens.
 */
const filesFields = {
  folder: folderParam,
  type: oneOf(FILE_KINDS),
  origin: oneOf(FILE_ORIGINS),
  q: text({ trim: true, max: 200 }),
  /** First and last local day the files were made on (inclusive), YYYY-MM-DD. */
  from: text({ pattern: LOCAL_DATE }),
  to: text({ pattern: LOCAL_DATE }),
  view: oneOf(FILE_VIEWS),
};
export const FilesSearch = searchParams(filesFields);
export type FilesSearch = SearchOf<typeof filesFields>;

/** What the list asks the server for; equal filters make equal query keys. */
export interface FileListFilters {
  folder?: string;
  type?: FileKind;
  origin?: (typeof FILE_ORIGINS)[number];
  q?: string;
  from?: string;
  to?: string;
}

export function fileListFilters(search: FilesSearch): FileListFilters {
  const filters: FileListFilters = {};
  if (search.folder) filters.folder = search.folder;
  if (search.type) filters.type = search.type;
  if (search.origin) filters.origin = search.origin;
  const q = search.q?.trim();
  if (q) filters.q = q;
  if (search.from) filters.from = search.from;
  if (search.to) filters.to = search.to;
  return filters;
}

/** The `GET /v2/files` query of a filter set. */
export function listQueryOf(filters: FileListFilters) {
  return {
    ...(filters.folder ? { folder: filters.folder } : {}),
    ...(filters.type ? { media_type: `${filters.type}/*` } : {}),
    ...(filters.origin ? { origin: filters.origin } : {}),
    ...(filters.q ? { q: filters.q } : {}),
    // Days in the browser's timezone, as the person reads them.
    ...(filters.from ? { created_from: localDayStart(filters.from) } : {}),
    ...(filters.to ? { created_to: localDayStart(filters.to, 1) } : {}),
  };
}

export function hasFilters(filters: FileListFilters): boolean {
  return Boolean(filters.type || filters.origin || filters.q || filters.from || filters.to);
}
