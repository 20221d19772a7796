import type { JobListQuery } from '../../../contract/jobs.ts';
import { type FolderViewer, inVisibleFolder } from '../../domain/folders/folder-visibility.ts';
import { decodeCursor, microsecondInstant } from '../../domain/page-cursor.ts';

/*
 * The SQL of one page of GET /v2/jobs, newest first. Each filter of one value is an equality, so the page
 * is the first rows of that column's index in the list's order (migration 013) however many jobs the
 * team has and whether the filter matches all, a few or none of them. A filter of several values becomes
 * one such scan per value (UNION ALL), each cut at the page size, then merged: `= ANY(list)` would fetch
 * every match and sort it, or walk the whole team looking for matches.
 */

/** Every job column, and the cursor's instant with PostgreSQL's microseconds (a JS Date keeps milliseconds). */
const PAGE_COLUMNS = `*, ${microsecondInstant('created_at')} AS cursor_at`;
const NEWEST_FIRST = 'ORDER BY created_at DESC, id DESC';

/** The most values of one filter split into scans of their own; a longer list is one `= ANY` filter. */
const MAX_SPLIT = 8;

interface ListFilter {
  column: string;
  /** `::uuid` for folder ids: the parameter arrives as text. */
  cast: string;
  values: string[];
}

/** The list filters of a query, each value once (a repeated value would repeat rows across scans). */
function listFilters(q: JobListQuery): ListFilter[] {
  const filters: ListFilter[] = [];
  const add = (column: string, values: readonly string[] | undefined, cast = '') => {
    if (values?.length) filters.push({ column, cast, values: [...new Set(values)] });
  };
  add('status', q.status);
  add('tool', q.tool);
  add('model', q.model);
  if (q.folder !== 'none') add('folder_id', q.folder, '::uuid');
  if (q.key !== 'none') add('api_key_id', q.key);
  return filters;
}

/**
 * SQL and parameters of a page of at most `take` jobs of the viewer's team matching `q`, leaving out jobs
 * filed in a private folder the viewer may not see (so `folder=<that folder>` lists nothing).
 */
export function jobPageQuery(
  viewer: FolderViewer,
  q: JobListQuery,
  take: number,
): { text: string; values: unknown[] } {
  const values: unknown[] = [viewer.teamId];
  const param = (value: unknown) => {
    values.push(value);
    return `$${values.length}`;
  };
  const where = ['team_id = $1', inVisibleFolder(viewer, 'folder_id', param)];
  const lists = listFilters(q);
  const split = lists.find((f) => f.values.length > 1 && f.values.length <= MAX_SPLIT);
  for (const filter of lists) {
    if (filter === split) continue;
    where.push(
      filter.values.length === 1
        ? `${filter.column} = ${param(filter.values[0])}${filter.cast}`
        : `${filter.column} = ANY(${param(filter.values)}${filter.cast && `${filter.cast}[]`})`,
    );
  }
  if (q.folder === 'none') where.push('folder_id IS NULL');
  if (q.key === 'none') where.push('api_key_id IS NULL');
  if (q.error_code?.length) {
    // The codes as analytics counts them (a failed job without one is `unknown`); the partial index of
    // migration 028 holds the jobs with an error, in the list's order.
    const known = `(error IS NOT NULL AND error->>'code' = ANY(${param([...new Set(q.error_code)])}))`;
    where.push(
      q.error_code.includes('unknown')
        ? `(${known} OR (status = 'failed' AND error->>'code' IS NULL))`
        : known,
    );
  }
  if (q.created_from) where.push(`created_at >= ${param(q.created_from)}`);
  if (q.created_to) where.push(`created_at < ${param(q.created_to)}`);
  if (q.updated_since) where.push(`updated_at >= ${param(q.updated_since)}`);
  if (q.cursor) {
    const { instant, id } = decodeCursor(q.cursor);
    where.push(`(created_at, id) < (${param(instant)}::timestamptz, ${param(id)})`);
  }
  const scan = (extra: string[]) =>
    `SELECT ${PAGE_COLUMNS} FROM jobs WHERE ${[...where, ...extra].join(' AND ')} ${NEWEST_FIRST} LIMIT ${take}`;
  if (!split) return { text: scan([]), values };
  const scans = split.values.map((value) => `(${scan([`${split.column} = ${param(value)}${split.cast}`])})`);
  return { text: `SELECT * FROM (${scans.join(' UNION ALL ')}) page ${NEWEST_FIRST} LIMIT ${take}`, values };
}
