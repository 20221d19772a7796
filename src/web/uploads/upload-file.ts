import { ApiError } from '../../client/api-error.ts';
import type { Client } from '../../client/create-client.ts';
import type { FileRecord } from '../../contract/files.ts';
import { FILE_NAME_MAX, UPLOAD_MAX_BYTES } from '../../contract/values.ts';
import { api, bearerToken } from '../api/client.ts';
import { formatBytes } from '../format/bytes.ts';
import { hashFile } from './hash-file.ts';
import { type PutBytes, putBytes } from './put-bytes.ts';

export type UploadPhase = 'hashing' | 'starting' | 'uploading' | 'registering';

/**
 * `duplicate`: the team already had these bytes, or another file of the same drop had them; nothing was
 * sent and the one stored file is answered.
 */
export interface UploadOutcome {
  kind: 'uploaded' | 'duplicate';
  file: FileRecord;
  /** A duplicate of another file in the same drop (its name), rather than of a file stored before. */
  sameAs?: string;
  /** How the bytes went: straight to storage, or through the API when storage could not be reached. */
  via: 'direct' | 'proxy' | null;
}

export interface UploadOptions {
  /** Folder id or slug the file goes into (`X-Workspace-Id`). */
  folder?: string;
  onPhase?: (phase: UploadPhase) => void;
  onProgress?: (sent: number, total: number) => void;
  signal?: AbortSignal;
  /**
   * The uploads of one drop by hash: a file whose bytes another one of the drop is sending (or sent) waits
   * for that one and is answered as its duplicate, so one drop never stores the same bytes twice.
   */
  inFlight?: Map<string, { name: string; outcome: Promise<UploadOutcome> }>;
}

/** What an upload talks to; tests give their own. */
export interface UploadDeps {
  client: () => Client;
  token: () => string | null;
  put: PutBytes;
  hash: (file: Blob) => Promise<string>;
}

const browserDeps: UploadDeps = { client: api, token: bearerToken, put: putBytes, hash: hashFile };

/** A file the console will not send, with the reason in words. */
export class UploadRefused extends Error {}

export function refusalOf(file: File): string | null {
  if (file.size === 0) return `${file.name} is empty: there is nothing to upload.`;
  if (file.size > UPLOAD_MAX_BYTES) {
    return `${file.name} is ${formatBytes(file.size)}; files can be at most 200 MB.`;
  }
  return null;
}

/**
 * Errors that mean the bytes themselves were refused (too long, wrong hash) or the session is spent:
 * sending them again through the proxy would be refused the same way.
 */
function isFinal(error: unknown): boolean {
  return error instanceof ApiError && [409, 413, 422].includes(error.status);
}

/**
 * The console's upload path (spec 4.5): hash the file in a worker, ask for a session with that hash
 * (a known hash answers the existing file at once), PUT the bytes to the presigned `upload_url` and
 * register them with `POST /v2/files/import`; when storage cannot be reached directly, PUT them through
 * the API's proxy URL instead, which registers the file itself.
 */
export async function uploadFile(
  file: File,
  options: UploadOptions = {},
  deps: UploadDeps = browserDeps,
): Promise<UploadOutcome> {
  const refusal = refusalOf(file);
  if (refusal) throw new UploadRefused(refusal);
  const { onPhase, signal } = options;
  const name = file.name.slice(0, FILE_NAME_MAX) || 'upload';

  onPhase?.('hashing');
  const hash = await deps.hash(file);
  signal?.throwIfAborted();

  const inFlight = options.inFlight;
  const earlier = inFlight?.get(hash);
  if (earlier) {
    // The same bytes are on their way already: this one is their duplicate, unless that upload fails.
    const first = await earlier.outcome.catch(() => null);
    if (first) return { kind: 'duplicate', file: first.file, via: null, sameAs: earlier.name };
  }
  const outcome = send(file, name, hash, options, deps);
  if (!inFlight || inFlight.has(hash)) return outcome;
  inFlight.set(hash, { name: file.name, outcome });
  // A failed upload leaves the bytes to the next file that has them.
  return outcome.catch((error: unknown) => {
    inFlight.delete(hash);
    throw error;
  });
}

/** Asks for a session with the hash, then sends the bytes it does not already have. */
async function send(
  file: File,
  name: string,
  hash: string,
  options: UploadOptions,
  deps: UploadDeps,
): Promise<UploadOutcome> {
  const { folder, onPhase, onProgress, signal } = options;
  const headers = folder ? { 'x-workspace-id': folder } : undefined;
  onPhase?.('starting');
  const session = await deps.client().createUploadSession({
    ...(headers ? { headers } : {}),
    body: { filename: name, size: file.size, hash, ...(file.type ? { media_type: file.type } : {}) },
  });
  if (session.deduplicated) return { kind: 'duplicate', file: session.file, via: null };

  onPhase?.('uploading');
  try {
    await deps.put({ url: session.upload_url, body: file, headers: session.headers, onProgress, signal });
  } catch (error) {
    if (signal?.aborted || isFinal(error)) throw error;
    // Storage is not reachable from this browser (another origin, a proxy in between): go through the API.
    const root = deps.client().baseUrl.replace(/\/v2$/, '');
    const token = deps.token();
    const answer = (await deps.put({
      url: `${root}${session.proxy_url}`,
      body: file,
      headers: { ...session.headers, ...(token ? { authorization: `Bearer ${token}` } : {}) },
      onProgress,
      signal,
    })) as { file: FileRecord };
    return { kind: kindOf(answer.file, session.session_id), file: answer.file, via: 'proxy' };
  }

  onPhase?.('registering');
  const registered = await deps.client().importFile({
    ...(headers ? { headers } : {}),
    body: { url: session.public_url, name },
  });
  return { kind: kindOf(registered, session.session_id), file: registered, via: 'direct' };
}

/**
 * The server answers the file it already had when the same bytes were registered meanwhile (another tab
 * uploading the same file at once): that is a duplicate, offered a place in this folder like any other.
 */
function kindOf(file: FileRecord, sessionId: string): UploadOutcome['kind'] {
  return file.id === sessionId ? 'uploaded' : 'duplicate';
}
