import type { TeamRole } from '../../../contract/account.ts';

/*
 * Who sees a folder and what is filed in it: one rule, used by every query that reads a folder or its
 * contents (folders, files, lineage, jobs, the ledger, analytics). Folders are the team's; a `private`
 * one, and everything filed into it, is seen only by its creator and the team's owners and managers.
 * To anyone else it does not exist: its jobs and files are 404, lists leave them out, and analytics
 * fold its spend into an unnamed group.
 */

/** Who is asking. A person acting for a team they are no member of (a shared key) has no role. */
export interface FolderViewer {
  teamId: string;
  personId: string | null;
  role: TeamRole | null;
}

/** Owners and managers see every folder of their team. */
export function seesEveryFolder(viewer: FolderViewer): boolean {
  return viewer.role === 'owner' || viewer.role === 'manager';
}

/** The parameters the rule reads, in the order the fixed-position queries use: team, person, sees-all. */
export function viewerParams(viewer: FolderViewer): unknown[] {
  return [viewer.teamId, viewer.personId, seesEveryFolder(viewer)];
}

/** SQL true when the folder row `w` is seen by the person in `person` (sees-all flag in `seesAll`). */
export function folderSeenSql(w: string, person: string, seesAll: string): string {
  return `(${w}.visibility = 'team' OR ${seesAll}::boolean OR ${w}.created_by = ${person}::uuid)`;
}

/**
 * SQL true when a row filed in the folder `column` (NULL: in none) is seen by the viewer whose person and
 * sees-all flag are in the parameters `person` and `seesAll`.
 */
export function inVisibleFolderSql(column: string, person: string, seesAll: string): string {
  return `(${column} IS NULL OR ${seesAll}::boolean OR EXISTS (
    SELECT 1 FROM workspaces fv WHERE fv.id = ${column} AND ${folderSeenSql('fv', person, 'false')}))`;
}

/** The same rule for queries that number their parameters as they go (`param` adds one, returns `$n`). */
export function inVisibleFolder(
  viewer: FolderViewer,
  column: string,
  param: (value: unknown) => string,
): string {
  if (seesEveryFolder(viewer)) return 'true';
  return inVisibleFolderSql(column, param(viewer.personId), param(false));
}
