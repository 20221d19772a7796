import { FileName, type FileRecord, UPLOAD_MAX_BYTES } from '../../../contract/files.ts';
import { transaction } from '../../db/pool.ts';
import { AppError } from '../../errors.ts';
import { safeFetchStream } from '../../net/safe-fetch.ts';
import { urlPolicyFromConfig } from '../../net/url-policy.ts';
import type { Services } from '../../services.ts';
import type { FolderViewer } from '../folders/folder-visibility.ts';
import { completeBucketUpload } from './bucket-upload.ts';
import { newFileId } from './file-ids.ts';
import { findFile, findFileById, toFileRecord } from './files.ts';
import { storedMediaType } from './media-type-policy.ts';
import { parseMediaUrl } from './media-urls.ts';
import { receiveBytes } from './receive-bytes.ts';
import { registerBlob } from './register-blob.ts';
import { dropUnusedBytes, registerDirectUpload } from './upload-flow.ts';

const IMPORT_TIMEOUT_MS = 300_000;

/** The last path segment of a URL as a file name, or `import` when it has none usable. */
function nameFromUrl(url: string): string {
  try {
    const segment = decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '');
    return FileName.safeParse(segment).data ?? 'import';
  } catch {
    return 'import';
  }
}

/**
 * `POST /files/import`: a direct upload's `public_url` registers that upload (origin `upload`); a URL of
 * one of our files copies it (origin `import`, read from storage); any other URL is fetched under the job
 * input rules (public hosts only, blocked domains refused, every redirect checked) and stored as it streams.
 */
export async function importFile(
  s: Services,
  viewer: FolderViewer,
  folderId: string | null,
  url: string,
  name: string | undefined,
): Promise<FileRecord> {
  const own = parseMediaUrl(s.config.PUBLIC_URL, url);
  if (own && !own.thumbnail) {
    const registered =
      (await completeBucketUpload(s, viewer, own.fileId, name)) ??
      (await registerDirectUpload(s, viewer, own.fileId, name));
    if (registered) return registered;
    // A file of the team the caller may not see (in a hidden private folder) is copied like a stranger's.
    const mine = await findFile(s.db, viewer, own.fileId);
    if (mine) return toFileRecord(mine, s.config.PUBLIC_URL);
    const other = await findFileById(s.db, own.fileId);
    if (!other) throw new AppError('not_found', `No file or upload session at ${url}.`);
    return store(
      s,
      viewer,
      folderId,
      name ?? other.name,
      other.mediaType,
      await s.blobs.createReadStream(other.storageKey),
    );
  }
  const fetched = await safeFetchStream(url, {
    policy: urlPolicyFromConfig(s.config),
    maxBytes: UPLOAD_MAX_BYTES,
    timeoutMs: IMPORT_TIMEOUT_MS,
  });
  return store(s, viewer, folderId, name ?? nameFromUrl(fetched.finalUrl), fetched.contentType, fetched.body);
}

/**
 * Stores fetched bytes as an import, unless the team already has them in a file the caller may see: that
 * file is the answer and the fetched copy is removed (`same-bytes.ts`, the rule of every upload path).
 */
async function store(
  s: Services,
  viewer: FolderViewer,
  folderId: string | null,
  name: string,
  declaredType: string | null,
  body: import('node:stream').Readable,
): Promise<FileRecord> {
  const received = await receiveBytes(s, body, { maxBytes: UPLOAD_MAX_BYTES, label: 'The file at that URL' });
  const id = newFileId();
  try {
    const file = await transaction(s.db, (tx) =>
      registerBlob(s, tx, {
        id,
        teamId: viewer.teamId,
        folderId,
        name,
        mediaType: storedMediaType(received.head, declaredType),
        origin: 'import',
        received,
        sameBytesFor: viewer,
      }),
    );
    if (file.id !== id) await dropUnusedBytes(s, id, received.storageKey);
    return file;
  } catch (error) {
    await s.blobs.delete(received.storageKey).catch(() => {});
    throw error;
  }
}
