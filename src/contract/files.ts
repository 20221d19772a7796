import { z } from 'zod';
import { commaList, commaListOrNone, HttpUrl, PageQuery, pageOf, Timestamp, ToolKey } from './common.ts';
import { defineEndpoint } from './endpoint.ts';
import { JobId, JobStatus } from './jobs.ts';
import { FILE_ID, FILE_NAME_MAX, FILE_ORIGINS, ID_MAX, UPLOAD_MAX_BYTES } from './values.ts';

export { FILE_NAME_MAX, FILE_ORIGINS, UPLOAD_MAX_BYTES };

/** Limits (spec 4.5, 3.2 and section 8). */
export const UPLOAD_SESSION_TTL_SECONDS = 3600;
/**
 * Ours: `POST /files` takes small files inline (base64 in JSON), at most 512 KiB decoded, so the JSON body
 * (base64 is 4/3 of the bytes) stays under the server's 1 MiB JSON body limit. Larger files use an upload
 * session.
 */
export const SMALL_FILE_MAX_BYTES = 512 * 1024;
export const DEFAULT_MEDIA_TYPE = 'application/octet-stream';

/**
 * File ids (ours): `file_` followed by opaque characters. An upload session's id becomes the id of the file
 * it registers (spec 2.5), so sessions carry the same form.
 */
export const FileId = z.string().max(ID_MAX).regex(FILE_ID, { message: 'must be a file id (file_...)' });

export const MediaType = z
  .string()
  .trim()
  .toLowerCase()
  .max(255)
  .regex(/^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*(\s*;.*)?$/, {
    message: 'must be a MIME type',
  });

/** `sha256:<64 lower-case hex>`, the form the service answers. */
export const Sha256 = z
  .string()
  .regex(/^sha256:[0-9a-f]{64}$/, { message: 'must be sha256:<64 hex characters>' });

/** A sha256 as clients may send it: with or without the `sha256:` prefix, any case. Normalised to `sha256:<hex>`. */
export const Sha256Input = z
  .string()
  .trim()
  .regex(/^(sha256:)?[0-9a-fA-F]{64}$/, {
    message: 'must be a sha256 hex digest, optionally prefixed with sha256:',
  })
  .transform((value) => `sha256:${value.replace(/^sha256:/, '').toLowerCase()}`);

export const FileName = z
  .string()
  .trim()
  .min(1)
  .max(FILE_NAME_MAX)
  .refine((name) => !/[\\/\0]/.test(name), {
    message: 'must not contain / \\ or NUL',
  });

export const FileOrigin = z.enum(FILE_ORIGINS).meta({ id: 'FileOrigin' });

/**
 * What the server learned from the bytes, and for a generated file what made it (`prompt`, `model`,
 * `tool` of its job); keys are present when known.
 */
export const FileMetadata = z
  .object({
    prompt: z.string().optional().meta({
      description: "A generated file's prompt (or speech text), its first 1000 characters.",
    }),
    model: z.string().optional().meta({ description: 'The model of the job that made the file.' }),
    tool: ToolKey.optional().meta({ description: 'The tool of the job that made the file.' }),
    width: z.int().min(1).optional(),
    height: z.int().min(1).optional(),
    duration_seconds: z.number().min(0).optional(),
    frame_rate: z.number().min(0).optional(),
    video_codec: z.string().optional(),
    audio_codec: z.string().optional(),
    sample_rate: z.int().min(1).optional(),
    channels: z.int().min(1).optional(),
  })
  .meta({ id: 'FileMetadata' });

/**
 * A file record (ours; spec 2.12 does not show it). `origin` says how the file arrived: `upload` (upload
 * session or `POST /files`), `import` (registered URL) or `job` (an output; `job_id` names the job).
 */
export const FileRecord = z
  .object({
    id: FileId,
    name: z.string(),
    media_type: z.string(),
    size_bytes: z.int().min(0),
    hash: Sha256.nullable().meta({ description: 'sha256 of the bytes; null while unknown.' }),
    url: z.string().meta({ description: 'Stable public URL.' }),
    thumbnail_url: z.string().nullable(),
    workspace_id: z.string().nullable().meta({ description: 'Folder id, or null when in no folder.' }),
    origin: FileOrigin,
    job_id: z.string().nullable().meta({ description: 'The job that produced the file (origin `job`).' }),
    metadata: FileMetadata,
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'File' });
export type FileRecord = z.infer<typeof FileRecord>;

/** `X-Workspace-Id`: folder id or slug; wins over `workspace_id` in the body (spec 4.5). */
export const WorkspaceHeaders = z.object({
  'x-workspace-id': z
    .string()
    .min(1)
    .max(100)
    .optional()
    .meta({ description: 'Folder id or slug; takes precedence over `workspace_id` in the body.' }),
});

const workspace_id = z
  .string()
  .min(1)
  .max(100)
  .optional()
  .meta({ description: 'Folder id or slug; `X-Workspace-Id` takes precedence.' });

/** Body of `POST /files/upload-session` (spec 4.5). */
export const UploadSessionRequest = z
  .object({
    media_type: MediaType.default(DEFAULT_MEDIA_TYPE).meta({
      description: 'MIME type. With the default, the real type is detected from the bytes on upload.',
    }),
    filename: FileName.optional(),
    size: z
      .int()
      .min(1)
      .max(UPLOAD_MAX_BYTES)
      .optional()
      .meta({ description: 'Bytes, 1 to 209715200 (200 MB).' }),
    hash: Sha256Input.optional().meta({
      description:
        'sha256 of the file, with or without the `sha256:` prefix. Lets the service skip the upload.',
    }),
    workspace_id,
  })
  .meta({ id: 'UploadSessionRequest' });

/** A new upload session (spec 2.5, `deduplicated: false`). */
export const NewUploadSession = z
  .object({
    deduplicated: z.literal(false),
    session_id: FileId.meta({ description: 'Used in the proxy upload path; becomes the file id.' }),
    upload_url: z.string().meta({ description: 'Presigned storage URL; PUT the raw bytes here.' }),
    public_url: z.string().meta({ description: 'URL the file will have once uploaded.' }),
    proxy_url: z
      .string()
      .regex(/^\/v2\/files\/upload\/[^/]+$/)
      .meta({ description: 'Path of the proxy upload endpoint, `/v2/files/upload/<session_id>`.' }),
    headers: z
      .record(z.string(), z.string())
      .meta({ description: 'Headers to send with the PUT (includes `Content-Type`).' }),
    expires_in: z.int().min(0).meta({ description: 'Seconds until the session expires (3600).' }),
    hash: Sha256.nullable().meta({ description: 'The hash the request gave; null when it gave none.' }),
  })
  .meta({ id: 'NewUploadSession' });

/**
 * The answer when the hash matches a file the account already has (spec 2.5, `deduplicated: true`): it
 * describes that file; there is nothing to upload. `session_id` is the file id and `public_url` its URL.
 */
export const DeduplicatedUploadSession = z
  .object({
    deduplicated: z.literal(true),
    file_id: FileId,
    url: z.string(),
    session_id: FileId,
    public_url: z.string(),
    hash: Sha256,
    file: FileRecord,
  })
  .meta({ id: 'DeduplicatedUploadSession' });

export const UploadSession = z
  .discriminatedUnion('deduplicated', [NewUploadSession, DeduplicatedUploadSession])
  .meta({ id: 'UploadSession' });
export type UploadSession = z.infer<typeof UploadSession>;

/** Answer of the proxy PUT (spec 4.5 shows `file_id`; the rest is ours). */
export const UploadComplete = z.object({ file_id: FileId, file: FileRecord }).meta({ id: 'UploadComplete' });

/**
 * Body of `POST /files` (ours): a small file inline, base64-encoded, at most 512 KiB decoded. Larger files
 * use an upload session.
 */
export const DirectUploadRequest = z
  .object({
    filename: FileName,
    media_type: MediaType.optional().meta({ description: 'Detected from the bytes when absent.' }),
    data: z
      .string()
      .regex(/^[A-Za-z0-9+/]*={0,2}$/, { message: 'must be base64' })
      .refine((value) => value.length % 4 === 0, { message: 'must be base64 (length a multiple of 4)' })
      .refine(
        (value) => {
          const bytes = base64Bytes(value);
          return bytes >= 1 && bytes <= SMALL_FILE_MAX_BYTES;
        },
        { message: `must decode to 1 to ${SMALL_FILE_MAX_BYTES} bytes` },
      )
      .meta({ description: 'The bytes, base64 (standard alphabet, padded); 1 byte to 512 KiB decoded.' }),
    workspace_id,
  })
  .meta({ id: 'DirectUploadRequest' });

/** Decoded length of a padded base64 string. */
export function base64Bytes(value: string): number {
  const padding = value.endsWith('==') ? 2 : value.endsWith('=') ? 1 : 0;
  return (value.length / 4) * 3 - padding;
}

/** Body of `POST /files/import` (ours): register a file by URL (also a direct upload's `public_url`). */
export const ImportFileRequest = z
  .object({
    url: HttpUrl,
    name: FileName.optional().meta({ description: 'Defaults to the last path segment of the URL.' }),
    workspace_id,
  })
  .meta({ id: 'ImportFileRequest' });

/** Body of `PATCH /files/{id}`: rename and/or move (`workspace_id: null` takes it out of its folder). */
export const UpdateFileRequest = z
  .object({
    name: FileName.optional(),
    workspace_id: z.string().min(1).max(100).nullable().optional().meta({
      description: 'Folder id or slug to move into; null to take the file out of its folder.',
    }),
  })
  .refine((b) => b.name !== undefined || b.workspace_id !== undefined, {
    message: 'name or workspace_id is required',
    path: ['name'],
  })
  .meta({ id: 'UpdateFileRequest' });

/** `media_type` filter values: full types (`image/png`) or families (`image/*`). */
const MediaTypeFilter = z
  .string()
  .toLowerCase()
  .regex(/^[A-Za-z0-9][A-Za-z0-9.+-]*\/([A-Za-z0-9][A-Za-z0-9.+-]*|\*)$/, {
    message: 'must be a MIME type or type/*',
  });

export const FileListQuery = PageQuery.extend({
  folder: commaListOrNone(z.uuid({ message: 'must be a folder id' }))
    .optional()
    .meta({
      description: 'Folder ids, or `none` for files outside any folder.',
    }),
  media_type: commaList(MediaTypeFilter)
    .optional()
    .meta({ description: 'MIME types or families such as `image/*`.' }),
  origin: commaList(FileOrigin).optional(),
  job: JobId.optional().meta({ description: 'Only outputs of this job.' }),
  q: z.string().trim().min(1).max(200).optional().meta({
    description: "Text matched against the file name, a generated file's prompt and its model.",
  }),
  created_from: Timestamp.optional().meta({ description: 'Created at or after this instant.' }),
  created_to: Timestamp.optional().meta({ description: 'Created before this instant (exclusive).' }),
});

export const FilePage = pageOf(FileRecord).meta({ id: 'FilePage' });

/** Lineage graph (ours): files and jobs as nodes; edges say which file went into or came out of which job. */
export const LineageNode = z
  .discriminatedUnion('kind', [
    z.object({
      kind: z.literal('file'),
      id: z.string(),
      file: FileRecord,
      deleted: z.boolean().meta({
        description: 'The file was deleted: kept in the graph for honesty, its URL no longer serves it.',
      }),
    }),
    z.object({
      kind: z.literal('job'),
      id: z.string(),
      job: z.object({
        id: z.string(),
        tool: ToolKey,
        model: z.string(),
        status: JobStatus,
        created_at: Timestamp,
        completed_at: Timestamp.nullable(),
      }),
    }),
  ])
  .meta({ id: 'LineageNode' });

export const LineageEdge = z
  .object({
    from: z.string().meta({ description: 'Node id (a file id or a job id).' }),
    to: z.string(),
    relation: z.enum(['input', 'output']).meta({
      description: '`input`: file -> job that used it. `output`: job -> file it produced.',
    }),
  })
  .meta({ id: 'LineageEdge' });

export const LineageGraph = z
  .object({
    root: FileId.meta({ description: 'The file the graph was asked for.' }),
    nodes: z.array(LineageNode),
    edges: z.array(LineageEdge),
    truncated: z.boolean().meta({ description: 'True when `depth` cut the graph short.' }),
  })
  .meta({ id: 'LineageGraph' });
export type LineageGraph = z.infer<typeof LineageGraph>;

export const FileParams = z.object({ id: FileId });

export const uploadFile = defineEndpoint({
  operationId: 'uploadFile',
  method: 'POST',
  path: '/v2/files',
  host: 'api',
  tag: 'Files',
  summary: 'Upload a small file',
  description:
    'Direct upload in one JSON request: the bytes base64-encoded in `data`, at most 512 KiB decoded. Files up to 200 MB use `POST /files/upload-session`. Bytes the team already has in a file the caller may see are not stored again: that file is the answer (as the upload session answers it with `deduplicated: true`), where it is: it is not moved into the folder named (its `workspace_id` says where it is; `PATCH /files/{id}` moves it).',
  auth: 'any',
  headers: WorkspaceHeaders,
  body: DirectUploadRequest,
  responses: {
    201: {
      description: 'The new file, or the file the team already had with these bytes.',
      schema: FileRecord,
    },
  },
  errors: ['not_found', 'payload_too_large', 'rate_limited'],
});

export const createUploadSession = defineEndpoint({
  operationId: 'createUploadSession',
  method: 'POST',
  path: '/v2/files/upload-session',
  host: 'api',
  tag: 'Files',
  summary: 'Start an upload (up to 200 MB)',
  description:
    'When `deduplicated` is true, use the returned `file_id` and `url` and skip the upload. Otherwise PUT the raw bytes to `upload_url`, or to `proxy_url` when only this API is reachable, with the `headers` given. The session accepts one upload and lasts one hour. After a direct upload, register the file with `POST /files/import` using `public_url`.',
  auth: 'any',
  headers: WorkspaceHeaders,
  body: UploadSessionRequest,
  responses: {
    200: { description: 'A new session, or the existing file when the hash matches.', schema: UploadSession },
  },
  errors: ['not_found', 'payload_too_large', 'rate_limited'],
});

export const uploadToSession = defineEndpoint({
  operationId: 'uploadToSession',
  method: 'PUT',
  path: '/v2/files/upload/{session_id}',
  host: 'api',
  tag: 'Files',
  summary: 'Upload bytes through the API (proxy)',
  description:
    'The body is the raw bytes (not JSON), sent with the `Content-Type` from the session headers. Registers the file and returns its id; when the team got the same bytes meanwhile in a file the caller may see (the same file uploaded at once from another tab), that file is returned instead (its id is then another than the session id) and no second copy is kept. 404 for an unknown or expired session, 409 when the session was already used, 413 beyond the declared size or 200 MB, 422 when the bytes do not match the declared hash.',
  auth: 'any',
  params: z.object({ session_id: FileId }),
  headers: z.object({ 'content-type': z.string().max(255).optional() }),
  responses: { 200: { description: 'The registered file.', schema: UploadComplete } },
  errors: ['not_found', 'conflict', 'payload_too_large', 'invalid_request'],
});

export const importFile = defineEndpoint({
  operationId: 'importFile',
  method: 'POST',
  path: '/v2/files/import',
  host: 'api',
  tag: 'Files',
  summary: 'Register a file by URL',
  description:
    "Fetches the URL and registers it as a file (origin `import`). A direct upload's `public_url` registers the uploaded file (origin `upload`). Either way, bytes the team already has in a file the caller may see (the same file uploaded meanwhile from another tab, or fetched before) answer that file, where it is (its id is then not the session's; no second copy is kept).",
  auth: 'any',
  headers: WorkspaceHeaders,
  body: ImportFileRequest,
  responses: { 201: { description: 'The registered file.', schema: FileRecord } },
  errors: ['not_found', 'forbidden', 'payload_too_large', 'rate_limited'],
});

export const listFiles = defineEndpoint({
  operationId: 'listFiles',
  method: 'GET',
  path: '/v2/files',
  host: 'api',
  tag: 'Files',
  summary: 'List files',
  description: 'Newest first, with filters.',
  auth: 'any',
  query: FileListQuery,
  responses: { 200: { description: 'A page of files.', schema: FilePage } },
  errors: [],
});

export const getFile = defineEndpoint({
  operationId: 'getFile',
  method: 'GET',
  path: '/v2/files/{id}',
  host: 'api',
  tag: 'Files',
  summary: 'Get a file',
  auth: 'any',
  params: FileParams,
  responses: { 200: { description: 'The file.', schema: FileRecord } },
  errors: ['not_found'],
});

export const updateFile = defineEndpoint({
  operationId: 'updateFile',
  method: 'PATCH',
  path: '/v2/files/{id}',
  host: 'api',
  tag: 'Files',
  summary: 'Rename or move a file',
  auth: 'any',
  params: FileParams,
  body: UpdateFileRequest,
  responses: { 200: { description: 'The updated file.', schema: FileRecord } },
  errors: ['not_found'],
});

export const getFileLineage = defineEndpoint({
  operationId: 'getFileLineage',
  method: 'GET',
  path: '/v2/files/{id}/lineage',
  host: 'api',
  tag: 'Lineage',
  summary: 'Lineage of a file',
  description:
    "The job that produced the file, that job's input files, and what was made from the file, recursively up to `depth` jobs away, as a graph.",
  auth: 'any',
  params: FileParams,
  query: z.object({ depth: z.coerce.number().int().min(1).max(10).default(5) }),
  responses: { 200: { description: 'The graph.', schema: LineageGraph } },
  errors: ['not_found'],
});

export const deleteFile = defineEndpoint({
  operationId: 'deleteFile',
  method: 'DELETE',
  path: '/v2/files/{id}',
  host: 'api',
  tag: 'Files',
  summary: 'Delete a file',
  description:
    'Removes the bytes and thumbnail; the file is no longer listed and its URL answers 404. Lineage graphs keep it as a node marked `deleted`.',
  auth: 'any',
  params: FileParams,
  responses: { 204: { description: 'Deleted.' } },
  errors: ['not_found'],
});

/** Ours: how many files one zip download takes, and how long its link lasts. */
export const FILE_ARCHIVE_MAX_FILES = 200;
export const FILE_ARCHIVE_TTL_SECONDS = 600;

/** Body of `POST /files/archive` (ours): files to download together as one zip. */
export const FileArchiveRequest = z
  .object({
    file_ids: z
      .array(FileId)
      .min(1)
      .max(FILE_ARCHIVE_MAX_FILES)
      .meta({
        description: `1 to ${FILE_ARCHIVE_MAX_FILES} files of the team; each listed once in the zip.`,
      }),
    name: FileName.optional().meta({ description: 'The zip\'s file name, without ".zip". Default `files`.' }),
  })
  .meta({ id: 'FileArchiveRequest' });

/** Answer of `POST /files/archive`: a link that streams the zip, checked again when it is opened. */
export const FileArchive = z
  .object({
    url: z.string().meta({
      description:
        'Streams the zip (no bearer needed: the signed link is the credential, like `upload_url`). Open it in a browser or `curl -OJ`.',
    }),
    name: z.string().meta({ description: 'The file name the zip downloads as.' }),
    file_count: z.int().min(1),
    size_bytes: z
      .int()
      .min(0)
      .meta({ description: "The files' bytes together (the zip stores them as they are)." }),
    expires_in: z
      .int()
      .min(0)
      .meta({ description: `Seconds the link works (${FILE_ARCHIVE_TTL_SECONDS}).` }),
  })
  .meta({ id: 'FileArchive' });
export type FileArchive = z.infer<typeof FileArchive>;

export const createFileArchive = defineEndpoint({
  operationId: 'createFileArchive',
  method: 'POST',
  path: '/v2/files/archive',
  host: 'api',
  tag: 'Files',
  summary: 'Download files as one zip',
  description:
    "Checks every file against the caller's team and the visibility of its folder (an unknown, deleted or hidden file is 404, naming it) and answers a signed link, valid 10 minutes, that streams them as one zip with its size known in advance. The link checks the files again when it is opened: files deleted since are left out, and a person no longer in the team gets 404.",
  auth: 'any',
  body: FileArchiveRequest,
  responses: { 201: { description: 'The link to the zip.', schema: FileArchive } },
  errors: ['not_found'],
});
