import type { Services } from '../../services.ts';
import type { Route } from '../define-route.ts';

/** Folders (workspaces): create, list, get by id or slug, rename. */
export function folderRoutes(_s: Services): Route[] {
  return [];
}
