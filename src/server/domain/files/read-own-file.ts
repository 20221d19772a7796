import { buffer } from 'node:stream/consumers';
import type { Services } from '../../services.ts';
import { BlobNotFoundError } from '../../storage/blob-store.ts';
import { fileBlob, findFileById } from './files.ts';
import { parseMediaUrl } from './media-urls.ts';

export interface OwnFile {
  body: Buffer;
  contentType: string;
  fileId: string;
  name: string;
}

/**
 * The bytes behind one of our own media URLs, read from storage rather than fetched over the network
 * (no request to ourselves, no SSRF check needed). Null when the URL is not ours or names nothing.
 */
export async function readOwnFile(services: Services, url: string): Promise<OwnFile | null> {
  const ref = parseMediaUrl(services.config.PUBLIC_URL, url);
  if (!ref) return null;
  const file = await findFileById(services.db, ref.fileId);
  const blob = file && fileBlob(file, ref.thumbnail);
  if (!file || !blob) return null;
  try {
    const body = await buffer(await services.blobs.createReadStream(blob.key));
    return { body, contentType: blob.contentType, fileId: file.id, name: file.name };
  } catch (error) {
    if (error instanceof BlobNotFoundError) return null;
    throw error;
  }
}
