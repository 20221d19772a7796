import type { Readable } from 'node:stream';

/** Inclusive byte offsets, as in an HTTP `Range: bytes=start-end` header. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface StoredBlob {
  size: number;
  /** Lower-case hex sha256 of the bytes. */
  sha256: string;
}

/**
 * Where file bytes live. Small on purpose, so an S3-compatible store can implement it: keys are flat
 * names made by the server (see isBlobKey), never taken from a request.
 */
export interface BlobStore {
  /** Writes the whole blob, replacing any blob with that key; readers never see a partial blob. */
  put(key: string, data: Buffer | Readable, contentType: string): Promise<StoredBlob>;
  /** The blob's size, or null when there is none. */
  stat(key: string): Promise<{ size: number } | null>;
  /** The bytes (or one range of them). Rejects with BlobNotFoundError when there is no such blob. */
  createReadStream(key: string, range?: ByteRange): Promise<Readable>;
  /** Removes the blob; removing a missing blob is not an error. */
  delete(key: string): Promise<void>;
  /**
   * A path on this machine where tools that need a seekable file (ffmpeg, sharp) can read the blob, for
   * stores that keep blobs on local disk; absent for remote stores (copy the blob to a temporary file).
   */
  localPath?(key: string): string;
  /** Rejects when the store cannot be reached or used (for readiness checks). */
  ping(): Promise<void>;
  /**
   * Remote stores: a presigned URL where a client PUTs the bytes of `key` itself, with the headers it must
   * send. The upload is not trusted: its size and hash are checked before it becomes a file.
   */
  presignUpload?(key: string, constraints: UploadConstraints): Promise<DirectUpload>;
  /** Remote stores: a URL where a client GETs the blob straight from the store (Range works there). */
  downloadUrl?(key: string, options: DownloadOptions): Promise<DownloadUrl>;
}

export interface UploadConstraints {
  contentType: string;
  /** Exact length in bytes, when declared. */
  size: number | null;
  /** Lower-case hex sha256, when declared. */
  sha256: string | null;
  expiresInSeconds: number;
}

export interface DirectUpload {
  url: string;
  headers: Record<string, string>;
}

export interface DownloadOptions {
  contentType: string;
  contentDisposition: string;
}

export interface DownloadUrl {
  url: string;
  /** How long the URL may be reused (cached) by a client. */
  maxAgeSeconds: number;
}

export class BlobNotFoundError extends Error {
  constructor(key: string) {
    super(`No blob with key ${key}`);
    this.name = 'BlobNotFoundError';
  }
}

// Segments start with a letter or digit, so `.`, `..` and hidden names cannot occur.
const SEGMENT = '[A-Za-z0-9][A-Za-z0-9._-]{0,127}';
const KEY = new RegExp(`^${SEGMENT}(/${SEGMENT}){0,3}$`);

/** A key the stores accept: 1 to 4 `/`-separated segments of letters, digits, `.`, `_` and `-`. */
export function isBlobKey(key: string): boolean {
  return key.length <= 400 && KEY.test(key);
}

export function assertBlobKey(key: string): void {
  if (!isBlobKey(key)) throw new Error(`Refused blob key ${JSON.stringify(key)}`);
}
