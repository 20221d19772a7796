import type { AnalyticsDimension } from '../../../contract/analytics.ts';
import { NONE } from '../../../contract/common.ts';
import { type FolderViewer, inVisibleFolder, seesEveryFolder } from '../folders/folder-visibility.ts';

/** Collects query parameters while SQL text is built, so values never enter the text. */
export class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

type List<T> = typeof NONE | T[] | undefined;

/** The filters of every analytics endpoint, as the contract parses them. */
export interface AnalyticsFilters {
  capability?: List<string>;
  model?: List<string>;
  folder?: List<string>;
  api_key?: List<string>;
  member?: List<string>;
  creator?: List<{ kind: 'api_key' | 'member'; id: string }>;
  source?: List<string>;
  status?: List<string>;
}

/**
 * Who is asking: members see every identity (`full`); a non-member (someone using a key shared with
 * them) sees only their own person and key, every other identity is one group labelled other (`self`).
 * Folders follow the one folder rule (folder-visibility.ts): spend in a private folder the viewer may not
 * see still counts, but in the group of others, never under its name or id.
 */
export interface Viewer extends FolderViewer {
  scope: 'full' | 'self';
  /** In `self` scope, the keys that count as the viewer's: the one calling, and keys shared with them. */
  apiKeyIds: string[];
}

/** The columns a filter or a dimension reads, on the ledger (charges) or on jobs (runs). */
export interface Columns {
  tool: string;
  model: string;
  folder: string;
  apiKey: string;
  person: string;
  source: string;
  status: string;
}

export const LEDGER_COLUMNS: Columns = {
  tool: 'l.tool',
  model: 'l.model',
  folder: 'l.folder_id',
  apiKey: 'l.api_key_id',
  person: 'l.person_id',
  source: "coalesce(l.source, 'unknown')",
  status: "coalesce(l.job_status, 'unknown')",
};

export const JOB_COLUMNS: Columns = {
  tool: 'j.tool',
  model: 'j.model',
  folder: 'j.folder_id',
  apiKey: 'j.api_key_id',
  person: 'j.person_id',
  source: 'j.source',
  status: 'j.status',
};

/** Marks the group of other identities in `self` scope (never a real key, id or tool). */
export const OTHER_KEY = '~other~';

function inList(p: Params, column: string, values: readonly string[], cast = 'text'): string {
  if (values.length === 0) return 'false';
  return `${column} = ANY(${p.add(values)}::${cast}[])`;
}

/** A filter's values in `self` scope: other people's ids select nothing (no probing of others' spend). */
function own<T>(values: T[], isOwn: (value: T) => boolean, viewer: Viewer): T[] {
  return viewer.scope === 'full' ? values : values.filter(isOwn);
}

/** SQL conditions (ANDed) for the filters on the given columns. */
export function filterConditions(p: Params, c: Columns, f: AnalyticsFilters, viewer: Viewer): string[] {
  const out: string[] = [];
  const simple = (value: List<string>, column: string, noneSql: string, cast = 'text') => {
    if (value === undefined) return;
    out.push(value === NONE ? noneSql : inList(p, column, value, cast));
  };
  simple(f.capability, c.tool, `${c.tool} IS NULL`);
  simple(f.model, c.model, `${c.model} IS NULL`);
  simple(f.folder, c.folder, `${c.folder} IS NULL`, 'uuid');
  // Naming a folder the viewer may not see selects nothing, as if it did not exist (no probing its spend).
  if (f.folder !== undefined && f.folder !== NONE)
    out.push(inVisibleFolder(viewer, c.folder, (v) => p.add(v)));
  simple(f.source, c.source, `${c.source} = 'unknown'`);
  simple(f.status, c.status, `${c.status} = 'unknown'`);
  if (f.api_key !== undefined) {
    out.push(
      f.api_key === NONE
        ? `${c.apiKey} IS NULL`
        : inList(
            p,
            c.apiKey,
            own(f.api_key, (id) => viewer.apiKeyIds.includes(id), viewer),
          ),
    );
  }
  if (f.member !== undefined) {
    out.push(
      f.member === NONE
        ? `${c.person} IS NULL`
        : inList(
            p,
            c.person,
            own(f.member, (id) => id === viewer.personId, viewer),
            'uuid',
          ),
    );
  }
  if (f.creator !== undefined) {
    if (f.creator === NONE) out.push(`(${c.apiKey} IS NULL AND ${c.person} IS NULL)`);
    else {
      const creators = own(
        f.creator,
        (v) => (v.kind === 'api_key' ? viewer.apiKeyIds.includes(v.id) : v.id === viewer.personId),
        viewer,
      );
      const keys = creators.filter((v) => v.kind === 'api_key').map((v) => v.id);
      const members = creators.filter((v) => v.kind === 'member').map((v) => v.id);
      out.push(
        `(${inList(p, c.apiKey, keys)} OR (${c.apiKey} IS NULL AND ${inList(p, c.person, members, 'uuid')}))`,
      );
    }
  }
  return out;
}

/** The creator of a charge or run: the key that started it, else the person. */
function creatorSql(c: Columns): string {
  return `CASE WHEN ${c.apiKey} IS NOT NULL THEN 'api_key:' || ${c.apiKey} WHEN ${c.person} IS NOT NULL THEN 'member:' || ${c.person}::text END`;
}

/** An identity value in `self` scope: the viewer's own stays, every other one becomes OTHER_KEY. */
function scoped(p: Params, value: string, ownValues: (string | null)[], viewer: Viewer): string {
  if (viewer.scope === 'full') return value;
  const mine = ownValues.filter((v): v is string => v !== null);
  return `CASE WHEN ${value} IS NULL THEN NULL WHEN ${value} = ANY(${p.add(mine)}::text[]) THEN ${value} ELSE ${p.add(OTHER_KEY)} END`;
}

/** The SQL value a breakdown groups by (text; NULL for none). */
export function dimensionSql(p: Params, c: Columns, dimension: AnalyticsDimension, viewer: Viewer): string {
  switch (dimension) {
    case 'capability':
      return c.tool;
    case 'model':
      return c.model;
    case 'folder':
      if (seesEveryFolder(viewer)) return `${c.folder}::text`;
      return `CASE WHEN ${inVisibleFolder(viewer, c.folder, (v) => p.add(v))} THEN ${c.folder}::text ELSE ${p.add(OTHER_KEY)} END`;
    case 'source':
      return c.source;
    case 'status':
      return c.status;
    case 'api_key':
      return scoped(p, c.apiKey, viewer.apiKeyIds, viewer);
    case 'member':
      return scoped(p, `${c.person}::text`, [viewer.personId], viewer);
    case 'creator':
      return scoped(
        p,
        creatorSql(c),
        [
          ...viewer.apiKeyIds.map((id) => `api_key:${id}`),
          viewer.personId ? `member:${viewer.personId}` : null,
        ],
        viewer,
      );
  }
}

/** Filters as `meta.filters` shows them: normalised lists (creators as `api_key:<id>`), absent when unset. */
export function appliedFilters(f: AnalyticsFilters): Record<string, typeof NONE | string[]> {
  const out: Record<string, typeof NONE | string[]> = {};
  for (const [name, value] of Object.entries(f) as [
    keyof AnalyticsFilters,
    AnalyticsFilters[keyof AnalyticsFilters],
  ][]) {
    if (value === undefined) continue;
    if (value === NONE) out[name] = NONE;
    else
      out[name] = (value as Array<string | { kind: string; id: string }>).map((v) =>
        typeof v === 'string' ? v : `${v.kind}:${v.id}`,
      );
  }
  return out;
}
