import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import {
  assertBlobKey,
  BlobNotFoundError,
  type BlobStore,
  type DirectUpload,
  type DownloadOptions,
  type DownloadUrl,
  type StoredBlob,
  type UploadConstraints,
} from './blob-store.ts';

export interface S3StoreOptions {
  bucket: string;
  /** Prepended to every key (`<prefix>/<key>`); empty for the bucket's root. */
  prefix: string;
  endpoint?: string;
  /** The endpoint as clients reach it, for presigned URLs; default `endpoint`. */
  publicEndpoint?: string;
  region: string;
  credentials?: { accessKeyId: string; secretAccessKey: string };
  forcePathStyle: boolean;
  /** A public address of the bucket's objects (`<base>/<object key>`); else downloads are presigned GETs. */
  publicBaseUrl?: string;
}

/** How long a presigned GET stays valid: long enough to play a video through, short enough to leak little. */
const DOWNLOAD_URL_SECONDS = 3600;

function isMissing(error: unknown): boolean {
  return (
    error instanceof S3ServiceException &&
    (error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata.httpStatusCode === 404)
  );
}

/**
 * Blobs as objects of an S3-compatible bucket (AWS S3, MinIO, R2, Garage…). Clients upload straight to
 * the bucket with presigned PUTs and read through presigned GETs (or a public base URL), so file bytes
 * need not pass through the API processes; many api and worker processes share one bucket.
 */
export class S3Store implements BlobStore {
  readonly client: S3Client;
  /** Signs presigned URLs for the host clients reach (signing is local: this one makes no requests). */
  private readonly presigner: S3Client;
  private readonly bucket: string;
  private readonly prefix: string;
  private readonly publicBaseUrl: string | undefined;

  constructor(options: S3StoreOptions) {
    this.bucket = options.bucket;
    this.prefix = options.prefix;
    this.publicBaseUrl = options.publicBaseUrl?.replace(/\/+$/, '');
    const clientFor = (endpoint: string | undefined) =>
      new S3Client({
        region: options.region,
        forcePathStyle: options.forcePathStyle,
        ...(endpoint ? { endpoint } : {}),
        ...(options.credentials ? { credentials: options.credentials } : {}),
        // The SDK's default CRC32 checksums and aws-chunked bodies are refused by many S3-compatible
        // servers; we hash the bytes ourselves (sha256) and send checksums only where we mean to.
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      });
    this.client = clientFor(options.endpoint);
    this.presigner = options.publicEndpoint ? clientFor(options.publicEndpoint) : this.client;
  }

  private objectKey(key: string): string {
    assertBlobKey(key);
    return this.prefix ? `${this.prefix}/${key}` : key;
  }

  /**
   * S3 wants a body's length up front, so a stream is spooled to a temporary file first (hashed on the
   * way, constant memory); a failing source leaves nothing in the bucket. PutObject replaces atomically.
   */
  async put(key: string, data: Buffer | Readable, contentType: string): Promise<StoredBlob> {
    const Key = this.objectKey(key);
    if (Buffer.isBuffer(data)) {
      await this.client.send(
        new PutObjectCommand({ Bucket: this.bucket, Key, Body: data, ContentType: contentType }),
      );
      return { size: data.length, sha256: createHash('sha256').update(data).digest('hex') };
    }
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mc-s3-put-'));
    try {
      const file = path.join(dir, 'body');
      const hash = createHash('sha256');
      let size = 0;
      const measure = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          hash.update(chunk);
          size += chunk.length;
          done(null, chunk);
        },
      });
      await pipeline(data, measure, createWriteStream(file, { mode: 0o600 }));
      await this.client.send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key,
          Body: createReadStream(file),
          ContentLength: size,
          ContentType: contentType,
        }),
      );
      return { size, sha256: hash.digest('hex') };
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  }

  async stat(key: string): Promise<{ size: number } | null> {
    try {
      const head = await this.client.send(
        new HeadObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }),
      );
      return { size: head.ContentLength ?? 0 };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async createReadStream(key: string, range?: { start: number; end: number }): Promise<Readable> {
    try {
      const answer = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: this.objectKey(key),
          ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
        }),
      );
      // In Node the body is the response's IncomingMessage, a Readable.
      return answer.Body as Readable;
    } catch (error) {
      if (isMissing(error)) throw new BlobNotFoundError(key);
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
  }

  async ping(): Promise<void> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
  }

  /**
   * A presigned PUT whose signature covers Content-Type, Content-Length and (when the hash is known)
   * x-amz-checksum-sha256: the bucket refuses another type or length, and a server that checks checksums
   * (AWS S3, MinIO, R2) other bytes. Servers that do not are caught when the upload is registered.
   */
  async presignUpload(key: string, constraints: UploadConstraints): Promise<DirectUpload> {
    const headers: Record<string, string> = { 'Content-Type': constraints.contentType };
    const signed = new Set(['content-type']);
    if (constraints.size !== null) signed.add('content-length');
    if (constraints.sha256 !== null) {
      headers['x-amz-checksum-sha256'] = Buffer.from(constraints.sha256, 'hex').toString('base64');
      signed.add('x-amz-checksum-sha256');
    }
    const command = new PutObjectCommand({
      Bucket: this.bucket,
      Key: this.objectKey(key),
      ContentType: constraints.contentType,
      ...(constraints.size !== null ? { ContentLength: constraints.size } : {}),
      ...(constraints.sha256 !== null ? { ChecksumSHA256: headers['x-amz-checksum-sha256'] } : {}),
    });
    const url = await getSignedUrl(this.presigner, command, {
      expiresIn: constraints.expiresInSeconds,
      signableHeaders: signed,
      // Kept as headers the client must send, not moved into the query string, so the bucket checks them.
      unhoistableHeaders: new Set(['x-amz-checksum-sha256']),
    });
    return { url, headers };
  }

  /**
   * The public URL under S3_PUBLIC_BASE_URL, else a presigned GET that names and types the download;
   * with how long it may be reused (a cached redirect must not outlive its presigned GET).
   */
  async downloadUrl(key: string, options: DownloadOptions): Promise<DownloadUrl> {
    const objectKey = this.objectKey(key);
    if (this.publicBaseUrl) return { url: `${this.publicBaseUrl}/${objectKey}`, maxAgeSeconds: 86_400 };
    const url = await getSignedUrl(
      this.presigner,
      new GetObjectCommand({
        Bucket: this.bucket,
        Key: objectKey,
        ResponseContentType: options.contentType,
        ResponseContentDisposition: options.contentDisposition,
      }),
      { expiresIn: DOWNLOAD_URL_SECONDS },
    );
    return { url, maxAgeSeconds: DOWNLOAD_URL_SECONDS / 4 };
  }
}
