import type { AnalyticsDimension } from '../../../contract/analytics.ts';
import type { Queryable } from '../../db/pool.ts';
import { type FolderViewer, folderSeenSql, viewerParams } from '../folders/folder-visibility.ts';

/** What a breakdown row without a value is called, per dimension. */
const NONE_LABELS: Record<AnalyticsDimension, string> = {
  capability: 'No tool',
  model: 'No model',
  folder: 'No folder',
  api_key: 'No API key',
  member: 'No member',
  creator: 'No creator',
  source: 'unknown',
  status: 'unknown',
};

export const OTHER_LABEL = 'Other';
export const OTHER_IDENTITIES_LABEL = 'Other people and keys';

export function noneLabel(dimension: AnalyticsDimension): string {
  return NONE_LABELS[dimension];
}

/**
 * The label of the group that holds only what the viewer may not tell apart: other people's keys and
 * persons, or folders hidden from them (which are not identities, so plain "Other").
 */
export function hiddenGroupLabel(dimension: AnalyticsDimension): string {
  return dimension === 'folder' ? OTHER_LABEL : OTHER_IDENTITIES_LABEL;
}

/**
 * Names for the given values of a dimension: names of the team's keys, persons and of the folders the
 * viewer may see; else the value.
 */
export async function labelsFor(
  db: Queryable,
  viewer: FolderViewer,
  dimension: AnalyticsDimension,
  keys: string[],
): Promise<Map<string, string>> {
  const labels = new Map(keys.map((k) => [k, k]));
  const keyIds = new Set<string>();
  const personIds = new Set<string>();
  const folderIds = new Set<string>();
  for (const key of keys) {
    if (dimension === 'folder') folderIds.add(key);
    else if (dimension === 'api_key') keyIds.add(key);
    else if (dimension === 'member') personIds.add(key);
    else if (dimension === 'creator') {
      if (key.startsWith('api_key:')) keyIds.add(key.slice(8));
      else if (key.startsWith('member:')) personIds.add(key.slice(7));
    }
  }
  const UUID = /^[0-9a-f-]{36}$/i;
  const [folders, apiKeys, persons] = await Promise.all([
    folderIds.size
      ? db.query<{ id: string; name: string }>(
          `SELECT w.id::text, w.name FROM workspaces w
            WHERE w.team_id = $1 AND ${folderSeenSql('w', '$2', '$3')} AND w.id = ANY($4::uuid[])`,
          [...viewerParams(viewer), [...folderIds].filter((id) => UUID.test(id))],
        )
      : null,
    keyIds.size
      ? db.query<{ id: string; name: string }>(
          'SELECT id, name FROM api_keys WHERE team_id = $1 AND id = ANY($2::text[])',
          [viewer.teamId, [...keyIds]],
        )
      : null,
    personIds.size
      ? db.query<{ id: string; name: string }>(
          'SELECT id::text, display_name AS name FROM persons WHERE id = ANY($1::uuid[])',
          [[...personIds].filter((id) => UUID.test(id))],
        )
      : null,
  ]);
  const folderNames = new Map(folders?.rows.map((r) => [r.id, r.name]));
  const keyNames = new Map(apiKeys?.rows.map((r) => [r.id, r.name]));
  const personNames = new Map(persons?.rows.map((r) => [r.id, r.name]));
  for (const key of keys) {
    let name: string | undefined;
    if (dimension === 'folder') name = folderNames.get(key);
    else if (dimension === 'api_key') name = keyNames.get(key);
    else if (dimension === 'member') name = personNames.get(key);
    else if (dimension === 'creator')
      name = key.startsWith('api_key:') ? keyNames.get(key.slice(8)) : personNames.get(key.slice(7));
    if (name) labels.set(key, name);
  }
  return labels;
}
