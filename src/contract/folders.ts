import { z } from 'zod';
import { PageQuery, pageOf, Timestamp, Uuid } from './common.ts';
import { defineEndpoint } from './endpoint.ts';

export const FOLDER_NAME_MAX = 100;

/**
 * Folder visibility (ours; spec 2.6 leaves the values open): `team` (the default) is seen by every member
 * of the owning team; `private` only by the person who created it (and the team's owners and managers).
 */
export const FOLDER_VISIBILITIES = ['team', 'private'] as const;
export const FolderVisibility = z.enum(FOLDER_VISIBILITIES).meta({ id: 'FolderVisibility' });

/** A folder (spec 2.6; "workspace" in paths and fields). */
export const Folder = z
  .object({
    id: Uuid,
    name: z.string(),
    slug: z.string().meta({ description: 'Unique within the team; derived from the name.' }),
    visibility: FolderVisibility,
    team_id: z.string(),
    created_at: Timestamp,
    updated_at: Timestamp,
    file_count: z.int().min(0),
  })
  .meta({ id: 'Folder' });
export type Folder = z.infer<typeof Folder>;

const FolderName = z
  .string()
  .trim()
  .min(1)
  .max(FOLDER_NAME_MAX)
  .meta({ description: '1 to 100 characters.' });

export const CreateFolderRequest = z
  .object({
    name: FolderName,
    visibility: FolderVisibility.optional().meta({ description: 'Default `team`.' }),
  })
  .meta({ id: 'CreateFolderRequest' });

export const UpdateFolderRequest = z
  .object({
    name: FolderName.optional(),
    visibility: FolderVisibility.optional(),
  })
  .refine((b) => b.name !== undefined || b.visibility !== undefined, {
    message: 'name or visibility is required',
    path: ['name'],
  })
  .meta({ id: 'UpdateFolderRequest' });

/** `{ workspace: <Folder> }`, the spec's answer to creation, also used by get and rename. */
export const FolderResponse = z.object({ workspace: Folder }).meta({ id: 'FolderResponse' });

export const FolderParams = z.object({
  id_or_slug: z.string().min(1).max(100).meta({ description: 'Folder id (UUID) or slug.' }),
});

export const createFolder = defineEndpoint({
  operationId: 'createFolder',
  method: 'POST',
  path: '/v2/workspaces',
  host: 'api',
  tag: 'Folders',
  summary: 'Create a folder',
  description:
    'The folder appears in the web dashboard. There is no delete endpoint. 422 `workspace_owner_unresolvable` when the account has no app user to own the folder (for example a service account).',
  auth: 'any',
  body: CreateFolderRequest,
  responses: { 201: { description: 'The new folder.', schema: FolderResponse } },
  errors: ['workspace_owner_unresolvable'],
});

export const listFolders = defineEndpoint({
  operationId: 'listFolders',
  method: 'GET',
  path: '/v2/workspaces',
  host: 'api',
  tag: 'Folders',
  summary: 'List folders',
  description: 'Folders the caller can see, newest first.',
  auth: 'any',
  query: PageQuery.extend({
    q: z.string().trim().min(1).max(100).optional().meta({ description: 'Text matched against the name.' }),
  }),
  responses: {
    200: { description: 'A page of folders.', schema: pageOf(Folder).meta({ id: 'FolderPage' }) },
  },
  errors: [],
});

export const getFolder = defineEndpoint({
  operationId: 'getFolder',
  method: 'GET',
  path: '/v2/workspaces/{id_or_slug}',
  host: 'api',
  tag: 'Folders',
  summary: 'Get a folder',
  auth: 'any',
  params: FolderParams,
  responses: { 200: { description: 'The folder.', schema: FolderResponse } },
  errors: ['not_found'],
});

export const updateFolder = defineEndpoint({
  operationId: 'updateFolder',
  method: 'PATCH',
  path: '/v2/workspaces/{id_or_slug}',
  host: 'api',
  tag: 'Folders',
  summary: 'Rename a folder',
  description: 'Renaming keeps the slug, so links keep working.',
  auth: 'any',
  params: FolderParams,
  body: UpdateFolderRequest,
  responses: { 200: { description: 'The updated folder.', schema: FolderResponse } },
  errors: ['not_found', 'forbidden'],
});
