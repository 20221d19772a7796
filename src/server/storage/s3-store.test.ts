import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { startS3Server } from '../testing/s3-server.ts';
import { BlobNotFoundError } from './blob-store.ts';
import { createBlobStore } from './create-blob-store.ts';
import { LazyS3Store } from './lazy-s3-store.ts';
import { LocalDiskStore } from './local-disk-store.ts';
import type { S3Store } from './s3-store.ts';
import { parseS3Url } from './s3-url.ts';

let s3: Awaited<ReturnType<typeof startS3Server>>;
let store: S3Store;
beforeAll(async () => {
  s3 = await startS3Server();
  const made = createBlobStore(loadConfig(s3.env));
  if (!(made instanceof LazyS3Store)) throw new Error('STORAGE_URL=s3:// did not make an S3 store');
  store = await made.store();
});
afterAll(() => s3.close());

const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const read = async (key: string, range?: { start: number; end: number }) =>
  buffer(await store.createReadStream(key, range));

describe('S3Store', () => {
  it('is what an s3:// STORAGE_URL selects; local disk stays the default', () => {
    expect(createBlobStore(loadConfig({}))).toBeInstanceOf(LocalDiskStore);
    expect(createBlobStore(loadConfig({ STORAGE_URL: 'file:///srv/media' }))).toBeInstanceOf(LocalDiskStore);
    expect(parseS3Url('s3://bucket/a/b/')).toEqual({ bucket: 'bucket', prefix: 'a/b' });
    expect(parseS3Url('s3://bucket')).toEqual({ bucket: 'bucket', prefix: '' });
  });

  it('stores a buffer and a stream under the prefix, reports size and sha256, reads ranges', async () => {
    const data = Buffer.from('The quick brown fox jumps over the lazy dog');
    expect(await store.put('files/ab/fox', data, 'text/plain')).toEqual({
      size: data.length,
      sha256: sha(data),
    });
    const chunks = [Buffer.alloc(70_000, 1), Buffer.alloc(3, 2), Buffer.alloc(100_000, 3)];
    const all = Buffer.concat(chunks);
    expect(await store.put('files/cd/stream', Readable.from(chunks), 'application/octet-stream')).toEqual({
      size: all.length,
      sha256: sha(all),
    });
    expect(await store.stat('files/cd/stream')).toEqual({ size: all.length });
    expect((await read('files/cd/stream')).equals(all)).toBe(true);
    expect((await read('files/ab/fox', { start: 4, end: 8 })).toString()).toBe('quick');
    // The object lives under the configured prefix.
    const direct = await fetch(
      await store
        .downloadUrl('files/ab/fox', {
          contentType: 'text/plain',
          contentDisposition: 'inline',
        })
        .then((d) => d.url),
    );
    expect(new URL(direct.url).pathname).toBe(`/${s3.bucket}/${s3.prefix}/files/ab/fox`);
    expect(await direct.text()).toBe(data.toString());
  });

  it('keeps nothing when the source stream fails', async () => {
    async function* failing() {
      yield Buffer.from('partial');
      throw new Error('source broke');
    }
    await expect(store.put('files/ab/broken', Readable.from(failing()), 'text/plain')).rejects.toThrow(
      'source broke',
    );
    expect(await store.stat('files/ab/broken')).toBeNull();
  });

  it('answers a missing blob with null and BlobNotFoundError; deleting twice is fine', async () => {
    await store.put('k', Buffer.from('x'), 'text/plain');
    await store.delete('k');
    await store.delete('k');
    expect(await store.stat('k')).toBeNull();
    await expect(store.createReadStream('k')).rejects.toBeInstanceOf(BlobNotFoundError);
  });

  it('refuses keys that are not ours', async () => {
    await expect(store.put('../escape', Buffer.from('x'), 'text/plain')).rejects.toThrow(/Refused blob key/);
    await expect(store.stat('a//b')).rejects.toThrow(/Refused blob key/);
  });

  it('pings a reachable bucket, and fails for a missing one', async () => {
    await expect(store.ping()).resolves.toBeUndefined();
    const missing = createBlobStore(loadConfig({ ...s3.env, STORAGE_URL: 's3://no-such-bucket' }));
    await expect(missing.ping()).rejects.toThrow();
  });

  it('presigns a PUT whose signature covers the declared type, length and sha256', async () => {
    const data = Buffer.from('exactly these bytes');
    const upload = await store.presignUpload('uploads/ab/one', {
      contentType: 'text/plain',
      size: data.length,
      sha256: sha(data),
      expiresInSeconds: 600,
    });
    // The client must send these; the checksum stays a header (not hoisted into the query) so the bucket checks it.
    expect(upload.headers).toEqual({
      'Content-Type': 'text/plain',
      'x-amz-checksum-sha256': Buffer.from(sha(data), 'hex').toString('base64'),
    });
    const url = new URL(upload.url);
    expect(url.pathname).toBe(`/${s3.bucket}/${s3.prefix}/uploads/ab/one`);
    expect(url.searchParams.get('X-Amz-SignedHeaders')?.split(';')).toEqual([
      'content-length',
      'content-type',
      'host',
      'x-amz-checksum-sha256',
    ]);
    expect(url.searchParams.get('X-Amz-Expires')).toBe('600');
    // s3rver does not check V4 signatures: what it lets through is checked when the upload is registered.
    const put = await fetch(upload.url, {
      method: 'PUT',
      body: new Uint8Array(data),
      headers: upload.headers,
    });
    expect(put.status).toBe(200);
    expect((await read('uploads/ab/one')).equals(data)).toBe(true);
  });

  it('presigns only the type when neither size nor hash was declared', async () => {
    const upload = await store.presignUpload('uploads/ab/two', {
      contentType: 'video/mp4',
      size: null,
      sha256: null,
      expiresInSeconds: 60,
    });
    expect(upload.headers).toEqual({ 'Content-Type': 'video/mp4' });
    expect(new URL(upload.url).searchParams.get('X-Amz-SignedHeaders')).toBe('content-type;host');
  });

  it('signs presigned URLs for S3_PUBLIC_ENDPOINT, the address browsers reach, when it is set', async () => {
    const behindProxy = createBlobStore(
      loadConfig({ ...s3.env, S3_PUBLIC_ENDPOINT: 'https://s3.media.example' }),
    );
    const upload = await behindProxy.presignUpload!('uploads/ab/x', {
      contentType: 'image/png',
      size: 3,
      sha256: null,
      expiresInSeconds: 60,
    });
    expect(upload.url.startsWith(`https://s3.media.example/${s3.bucket}/${s3.prefix}/uploads/ab/x?`)).toBe(
      true,
    );
    const download = await behindProxy.downloadUrl!('files/ab/x', {
      contentType: 'image/png',
      contentDisposition: 'inline',
    });
    expect(download.url.startsWith(`https://s3.media.example/${s3.bucket}/${s3.prefix}/files/ab/x?`)).toBe(
      true,
    );
    // The server itself still talks to S3_ENDPOINT.
    await expect(behindProxy.ping()).resolves.toBeUndefined();
  });

  it('names public URLs from S3_PUBLIC_BASE_URL when it is set', async () => {
    const pub = createBlobStore(loadConfig({ ...s3.env, S3_PUBLIC_BASE_URL: 'https://cdn.example/media/' }));
    expect(
      await pub.downloadUrl!('files/ab/x', { contentType: 'image/png', contentDisposition: 'inline' }),
    ).toEqual({
      url: `https://cdn.example/media/${s3.prefix}/files/ab/x`,
      maxAgeSeconds: 86_400,
    });
  });
});
