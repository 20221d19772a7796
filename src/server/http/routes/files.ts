import { getFile, listFiles, uploadFile } from '../../../contract/files.ts';
import { findFile, storeFile, toFileRecord } from '../../domain/files/files.ts';
import { listFiles as listTeamFiles } from '../../domain/files/list-files.ts';
import { sniffMediaType } from '../../domain/files/sniff-media-type.ts';
import { resolveFolder } from '../../domain/jobs/create-job.ts';
import { AppError } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { defineRoute, reply } from '../define-route.ts';

/**
 * The first file routes: a small direct upload (so the playground can take a local file as an input),
 * listing the team's files (the playground's Files picker) and reading one file. Moving, lineage and
 * upload sessions come with the files browser.
 */
export function fileRoutes(s: Services) {
  return [
    defineRoute(uploadFile, async ({ auth, body, headers }) => {
      const folderId = await resolveFolder(s.db, auth.teamId, headers['x-workspace-id'] ?? body.workspace_id);
      const data = Buffer.from(body.data, 'base64');
      const file = await storeFile(s, {
        teamId: auth.teamId,
        folderId,
        name: body.filename,
        mediaType: body.media_type ?? sniffMediaType(data),
        data,
        origin: 'upload',
      });
      return reply(201, file);
    }),

    defineRoute(listFiles, ({ auth, query }) => listTeamFiles(s.db, auth.teamId, query, s.config.PUBLIC_URL)),

    defineRoute(getFile, async ({ auth, params }) => {
      const file = await findFile(s.db, auth.teamId, params.id);
      if (!file) throw new AppError('not_found', `No file ${params.id}.`);
      return toFileRecord(file, s.config.PUBLIC_URL);
    }),
  ];
}
