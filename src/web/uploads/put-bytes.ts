import { ApiError } from '../../client/api-error.ts';

export interface PutRequest {
  url: string;
  body: Blob;
  headers: Record<string, string>;
  /** Bytes sent so far and the total, as the browser reports them. */
  onProgress?: (sent: number, total: number) => void;
  signal?: AbortSignal;
}

/** Answers the parsed JSON body (or null when there is none). */
export type PutBytes = (request: PutRequest) => Promise<unknown>;

function errorOf(xhr: XMLHttpRequest): ApiError {
  try {
    const parsed = JSON.parse(xhr.responseText) as {
      error?: { code?: unknown; message?: unknown; details?: unknown };
    };
    if (parsed.error && typeof parsed.error.code === 'string') {
      return new ApiError({
        status: xhr.status,
        code: parsed.error.code,
        message: typeof parsed.error.message === 'string' ? parsed.error.message : parsed.error.code,
        details: parsed.error.details,
        requestId: xhr.getResponseHeader('x-request-id'),
      });
    }
  } catch {
    // not the envelope: fall through
  }
  return new ApiError({
    status: xhr.status,
    code: `http_${xhr.status}`,
    message: `The upload failed (HTTP ${xhr.status}).`,
  });
}

/**
 * PUTs raw bytes with XMLHttpRequest, the one browser API that reports upload progress. A network
 * failure (or a refused cross-origin request) is an ApiError with status 0, like the API client's.
 */
export const putBytes: PutBytes = ({ url, body, headers, onProgress, signal }) =>
  new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', url);
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) =>
      onProgress?.(event.loaded, event.lengthComputable ? event.total : body.size);
    xhr.onload = () => {
      if (xhr.status < 200 || xhr.status >= 300) return reject(errorOf(xhr));
      onProgress?.(body.size, body.size);
      try {
        resolve(xhr.responseText ? (JSON.parse(xhr.responseText) as unknown) : null);
      } catch {
        resolve(null);
      }
    };
    xhr.onerror = () =>
      reject(
        new ApiError({ status: 0, code: 'network_error', message: 'The upload could not reach the server.' }),
      );
    xhr.onabort = () => reject(new DOMException('The upload was cancelled.', 'AbortError'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(body);
  });
