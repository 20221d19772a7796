import { createFolder, getFolder, listFolders, updateFolder } from '../../../contract/folders.ts';
import { transaction } from '../../db/pool.ts';
import type { FolderViewer } from '../../domain/folders/folder-visibility.ts';
import * as folders from '../../domain/folders/folders.ts';
import type { AuthContext } from '../../domain/identity/auth-context.ts';
import type { Services } from '../../services.ts';
import { auditOrigin } from '../audit-request.ts';
import { defineRoute, reply } from '../define-route.ts';

const viewerOf = (auth: AuthContext): FolderViewer => ({
  teamId: auth.teamId,
  personId: auth.personId,
  role: auth.role,
});

/** Folders (workspaces): create, list, get by id or slug, rename. No delete (the spec has none). */
export function folderRoutes(s: Services) {
  return [
    defineRoute(createFolder, async ({ auth, body }) =>
      reply(201, { workspace: await folders.createFolder(s.db, viewerOf(auth), body) }),
    ),
    defineRoute(listFolders, ({ auth, query }) => folders.listFolders(s.db, viewerOf(auth), query)),
    defineRoute(getFolder, async ({ auth, params }) => ({
      workspace: await folders.getFolder(s.db, viewerOf(auth), params.id_or_slug),
    })),
    defineRoute(updateFolder, async ({ auth, params, body, c }) => ({
      workspace: await transaction(s.db, (tx) =>
        folders.updateFolder(
          tx,
          viewerOf(auth),
          params.id_or_slug,
          body,
          auditOrigin(c, auth, s.config.TRUST_PROXY),
        ),
      ),
    })),
  ];
}
