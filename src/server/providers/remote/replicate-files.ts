import { ProviderError } from '../../domain/jobs/provider-error.ts';
import type { ProviderStorage } from './native-input.ts';
import { providerJson } from './provider-http.ts';
import { multipartFileBody, uploadTimeoutMs } from './provider-storage.ts';

/*
 * Input files to Replicate's Files API (replicate.com/docs/reference/http#files.create; the field names as
 * replicate-javascript's lib/files.js sends them): POST {api}/files, multipart/form-data with the bytes in
 * `content` (a file name and content type), answered 201 with the file, whose `urls.get` is the URL a
 * prediction's input takes. The multipart body is streamed (provider-storage.ts).
 */

const WHO = 'Replicate';
/**
 * Replicate recommends a data URI "only if the file is less than 1MB"
 * (replicate.com/docs/topics/predictions/input-files).
 */
export const REPLICATE_INLINE_MAX_BYTES = 1_000_000 - 1;
/** "This will work for files up to 100MB" (the same page, on uploads). */
export const REPLICATE_UPLOAD_MAX_BYTES = 100 * 1024 * 1024;

export function createReplicateStorage(config: {
  apiUrl: string;
  token: string | undefined;
}): ProviderStorage {
  const base = config.apiUrl.replace(/\/+$/, '');
  return {
    inlineMaxBytes: REPLICATE_INLINE_MAX_BYTES,
    async upload(file, signal) {
      if (file.size !== null && file.size > REPLICATE_UPLOAD_MAX_BYTES) {
        throw new ProviderError(
          'provider_rejected',
          `Replicate takes input files up to 100 MB; this one is ${Math.round(file.size / 1024 / 1024)} MB.`,
          { accepted: 'no' },
        );
      }
      const form = multipartFileBody('content', file, await file.open(signal));
      const answer = await providerJson<{ urls?: { get?: unknown } }>(WHO, `${base}/files`, {
        method: 'POST',
        headers: { authorization: `Bearer ${config.token}` },
        stream: form,
        signal,
        timeoutMs: uploadTimeoutMs(file.size),
      });
      const url = answer.urls?.get;
      if (typeof url !== 'string' || !url) {
        throw new ProviderError('provider_error', 'Replicate stored the file without a urls.get.');
      }
      return url;
    },
  };
}
