import {
  createFileArchive,
  createUploadSession,
  deleteFile,
  getFile,
  getFileLineage,
  importFile,
  listFiles,
  updateFile,
  uploadFile,
  uploadToSession,
} from '../../../contract/files.ts';
import { createFileArchive as startFileArchive } from '../../domain/files/file-archive.ts';
import { findFile, storeFile, toFileRecord } from '../../domain/files/files.ts';
import { importFile as importFromUrl } from '../../domain/files/import-file.ts';
import { fileLineage } from '../../domain/files/lineage.ts';
import { listFiles as listTeamFiles } from '../../domain/files/list-files.ts';
import { storedMediaType } from '../../domain/files/media-type-policy.ts';
import { requestBodyStream } from '../../domain/files/receive-bytes.ts';
import {
  deleteFile as deleteTeamFile,
  updateFile as updateTeamFile,
} from '../../domain/files/update-file.ts';
import { uploadThroughProxy } from '../../domain/files/upload-flow.ts';
import { createUploadSession as startUpload } from '../../domain/files/upload-sessions.ts';
import { resolveFolder } from '../../domain/folders/folders.ts';
import { AppError } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { defineRoute, reply } from '../define-route.ts';
import { requestHeader } from '../request-header.ts';

/**
 * Files: small direct uploads, upload sessions (proxy PUT here; the presigned PUT is on the media routes),
 * import by URL, list, get, rename/move, delete, lineage. Everything is the caller's team's: another team's
 * file or session is a 404, and so is a private folder the caller may not see, or a file in one (the
 * caller, as a FolderViewer, goes down to every lookup).
 */
export function fileRoutes(s: Services) {
  return [
    defineRoute(uploadFile, async ({ auth, body, headers }) => {
      const folderId = await resolveFolder(s.db, auth, headers['x-workspace-id'] ?? body.workspace_id);
      const data = Buffer.from(body.data, 'base64');
      const file = await storeFile(s, {
        teamId: auth.teamId,
        folderId,
        name: body.filename,
        mediaType: storedMediaType(data, body.media_type),
        data,
        origin: 'upload',
        // Bytes the team already has answer that file, as on the session path (same-bytes.ts).
        sameBytesFor: auth,
      });
      return reply(201, file);
    }),

    defineRoute(createUploadSession, async ({ auth, body, headers }) => {
      const folderId = await resolveFolder(s.db, auth, headers['x-workspace-id'] ?? body.workspace_id);
      return startUpload(s, auth, folderId, body);
    }),

    // The raw body is streamed to storage (mount.ts reads no body for an endpoint without a body schema).
    defineRoute(uploadToSession, async ({ auth, params, c }) => {
      const file = await uploadThroughProxy(
        s,
        auth,
        params.session_id,
        requestBodyStream(c),
        requestHeader(c, 'content-length'),
      );
      return { file_id: file.id, file };
    }),

    defineRoute(importFile, async ({ auth, body, headers }) => {
      const folderId = await resolveFolder(s.db, auth, headers['x-workspace-id'] ?? body.workspace_id);
      return reply(201, await importFromUrl(s, auth, folderId, body.url, body.name));
    }),

    defineRoute(listFiles, ({ auth, query }) => listTeamFiles(s.db, auth, query, s.config.PUBLIC_URL)),

    defineRoute(getFile, async ({ auth, params }) => {
      const file = await findFile(s.db, auth, params.id);
      if (!file) throw new AppError('not_found', `No file ${params.id}.`);
      return toFileRecord(file, s.config.PUBLIC_URL);
    }),

    defineRoute(updateFile, ({ auth, params, body }) =>
      updateTeamFile(s, auth, params.id, { name: body.name, workspaceId: body.workspace_id }),
    ),

    defineRoute(deleteFile, async ({ auth, params }) => {
      await deleteTeamFile(s, auth, params.id);
      return reply(204, undefined);
    }),

    defineRoute(createFileArchive, async ({ auth, body }) =>
      reply(201, await startFileArchive(s, auth, body.file_ids, body.name)),
    ),

    defineRoute(getFileLineage, ({ auth, params, query }) =>
      fileLineage(s.db, auth, params.id, query.depth, s.config.PUBLIC_URL),
    ),
  ];
}
