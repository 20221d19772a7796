import type { Readable } from 'node:stream';
import { safeFetchStream } from '../../net/safe-fetch.ts';
import type { UrlPolicy } from '../../net/url-policy.ts';
import type { Services } from '../../services.ts';
import { fileBlob, findFileById } from '../files/files.ts';
import { parseMediaUrl } from '../files/media-urls.ts';
import type { InputFile } from './provider.ts';

/** Inputs larger than the spec's file limit are refused while reading. */
const MAX_INPUT_BYTES = 209_715_200;

function kindOf(contentType: string): InputFile['kind'] {
  const family = contentType.split('/')[0];
  return family === 'image' || family === 'video' || family === 'audio' ? family : 'other';
}

function bareType(contentType: string | null | undefined): string {
  return contentType?.split(';')[0]?.trim().toLowerCase() || 'application/octet-stream';
}

/**
 * One of our own files as an input: streamed from storage, its length and play time from the file's row
 * (measured when it was stored). The provider may fetch it by its media URL only when it can reach us.
 */
export async function ownInputFile(s: Services, url: string): Promise<InputFile | null> {
  const ref = parseMediaUrl(s.config.PUBLIC_URL, url);
  const file = ref && (await findFileById(s.db, ref.fileId));
  const blob = file && ref && fileBlob(file, ref.thumbnail);
  if (!file || !blob) return null;
  const contentType = bareType(blob.contentType);
  return {
    url,
    publicUrl: s.config.PROVIDERS_REACH_PUBLIC_URL ? url : null,
    contentType,
    kind: kindOf(contentType),
    size: ref.thumbnail ? null : file.sizeBytes,
    fileName: blob.filename,
    open: () => s.blobs.createReadStream(blob.key),
    durationSeconds: async () => (ref.thumbnail ? null : file.durationSeconds),
  };
}

/**
 * A caller's URL as an input (checked against the URL policy when the job was created): the provider
 * fetches it itself. Its type is read from the answer's headers; the bytes are streamed only when an
 * adapter must send them (a multipart upload), through the guarded fetcher.
 */
export async function remoteInputFile(url: string, policy: UrlPolicy): Promise<InputFile> {
  const open = async (signal?: AbortSignal): Promise<Readable> => {
    const answer = await safeFetchStream(url, { policy, maxBytes: MAX_INPUT_BYTES, timeoutMs: 300_000 });
    signal?.addEventListener('abort', () => answer.body.destroy(), { once: true });
    return answer.body;
  };
  const head = await safeFetchStream(url, { policy, maxBytes: MAX_INPUT_BYTES, timeoutMs: 30_000 });
  head.body.destroy();
  const contentType = bareType(head.contentType);
  const length = Number(head.headers['content-length']);
  const name = decodeURIComponent(new URL(head.finalUrl).pathname.split('/').pop() || '') || 'input';
  return {
    url,
    publicUrl: url,
    contentType,
    kind: kindOf(contentType),
    size: Number.isSafeInteger(length) && length > 0 ? length : null,
    fileName: /^[\w.-]{1,200}$/.test(name) ? name : 'input',
    open,
    // Not measured here: the provider reports what it billed, or the offer's typical length applies.
    durationSeconds: async () => null,
  };
}
