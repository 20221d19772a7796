import type { InputFile } from '../../domain/jobs/provider.ts';
import { ProviderError } from '../../domain/jobs/provider-error.ts';
import type { ProviderStorage } from './native-input.ts';
import { providerFetch, providerJson } from './provider-http.ts';
import { streamParts, uploadTimeoutMs } from './provider-storage.ts';

/*
 * Input files to fal's storage, as fal's own client uploads them (fal-ai/fal-js, libs/client/src/storage.ts):
 * - POST {rest}/storage/upload/initiate?storage_type=fal-cdn-v3 { content_type, file_name }, with the key
 *   -> { upload_url, file_url }; then PUT the bytes to `upload_url` (a signed URL: no key is sent there);
 * - above 90 MB, a multipart upload: POST .../initiate-multipart (same body and answer), PUT each 10 MB part
 *   to `{upload_url path}/{part number}{upload_url query}` -> { partNumber, etag }, then POST
 *   `{upload_url path}/complete{query}` { parts: [{ partNumber, etag }] }.
 * The model is then given `file_url`. Bytes are streamed from the file, never held whole in memory.
 */

const WHO = 'fal storage';
/**
 * Largest input sent inline as a data: URI. fal documents no limit, and its maintainers say data URLs do
 * not work past about 10 MB, with reports of 3 MB (fal-ai/fal pull request #178): 1 MB stays well clear.
 */
export const FAL_INLINE_MAX_BYTES = 1024 * 1024;
/** fal-js switches to a multipart upload above 90 MB, in parts of 10 MB. */
export const FAL_MULTIPART_ABOVE_BYTES = 90 * 1024 * 1024;
export const FAL_PART_BYTES = 10 * 1024 * 1024;

interface Initiated {
  upload_url?: unknown;
  file_url?: unknown;
}

export function createFalStorage(config: { restUrl: string; key: string | undefined }): ProviderStorage {
  const rest = config.restUrl.replace(/\/+$/, '');
  const headers = () => ({ authorization: `Key ${config.key}` });

  async function initiate(file: InputFile, kind: 'initiate' | 'initiate-multipart', signal: AbortSignal) {
    const answer = await providerJson<Initiated>(
      WHO,
      `${rest}/storage/upload/${kind}?storage_type=fal-cdn-v3`,
      {
        method: 'POST',
        headers: headers(),
        json: { content_type: file.contentType, file_name: file.fileName },
        signal,
      },
    );
    if (typeof answer.upload_url !== 'string' || typeof answer.file_url !== 'string') {
      throw new ProviderError('provider_error', 'fal storage answered without upload_url and file_url.');
    }
    let upload: URL;
    try {
      upload = new URL(answer.upload_url);
    } catch {
      throw new ProviderError('provider_error', 'fal storage answered an upload_url that is not a URL.');
    }
    return { upload, fileUrl: answer.file_url };
  }

  async function single(file: InputFile, signal: AbortSignal): Promise<string> {
    const { upload, fileUrl } = await initiate(file, 'initiate', signal);
    await providerFetch(WHO, upload.toString(), {
      method: 'PUT',
      stream: { body: await file.open(signal), contentType: file.contentType, length: file.size },
      signal,
      timeoutMs: uploadTimeoutMs(file.size),
    });
    return fileUrl;
  }

  async function multipart(file: InputFile, signal: AbortSignal): Promise<string> {
    const { upload, fileUrl } = await initiate(file, 'initiate-multipart', signal);
    const base = `${upload.origin}${upload.pathname}`;
    const parts = streamParts(await file.open(signal), FAL_PART_BYTES);
    const done: { partNumber: number; etag: string }[] = [];
    let sent = 0;
    for (let partNumber = 1; await parts.more(); partNumber++) {
      const length = file.size === null ? null : Math.min(FAL_PART_BYTES, file.size - sent);
      const answer = await providerJson<{ partNumber?: unknown; etag?: unknown }>(
        WHO,
        `${base}/${partNumber}${upload.search}`,
        {
          method: 'PUT',
          stream: { body: parts.next(), contentType: file.contentType, length },
          signal,
          timeoutMs: uploadTimeoutMs(FAL_PART_BYTES),
        },
      );
      if (typeof answer.etag !== 'string') {
        throw new ProviderError('provider_error', `fal storage answered part ${partNumber} without an etag.`);
      }
      done.push({ partNumber, etag: answer.etag });
      sent += length ?? 0;
    }
    await providerFetch(WHO, `${base}/complete${upload.search}`, {
      method: 'POST',
      json: { parts: done },
      signal,
    });
    return fileUrl;
  }

  return {
    inlineMaxBytes: FAL_INLINE_MAX_BYTES,
    upload(file, signal) {
      return file.size !== null && file.size <= FAL_MULTIPART_ABOVE_BYTES
        ? single(file, signal)
        : multipart(file, signal);
    },
  };
}
