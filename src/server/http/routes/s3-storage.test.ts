import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiError } from '../../../client/api-error.ts';
import { type FileRecord, UploadSession } from '../../../contract/files.ts';
import { solidPng } from '../../domain/files/file-test-support.ts';
import { makeTestMedia } from '../../providers/local/ffmpeg-test-media.ts';
import { startS3Server } from '../../testing/s3-server.ts';
import { waitForJob } from '../../testing/server-journeys.ts';
import { createTestApp, signUp, TEST_PUBLIC_URL, type TestApp } from '../../testing/test-app.ts';

/** The app with STORAGE_URL=s3://… against s3rver: uploads, outputs and downloads all go through the bucket. */
let s3: Awaited<ReturnType<typeof startS3Server>>;
let t: TestApp;
let client: ReturnType<TestApp['clientFor']>;
let key: string;
beforeAll(async () => {
  s3 = await startS3Server();
  t = await createTestApp(s3.env);
  key = (await signUp(t)).api_key;
  client = t.clientFor(key);
});
afterAll(async () => {
  await t?.close();
  await s3?.close();
});

const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const unique = (text: string) => Buffer.from(`${text} ${Math.random()} ${Date.now()}`);
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (e: unknown) => e as ApiError,
  );

async function newSession(body: Record<string, unknown>) {
  const answer = UploadSession.parse(await client.createUploadSession({ body: body as never }));
  if (answer.deduplicated) throw new Error('unexpected dedupe');
  return answer;
}

/** The PUT a browser would send to the session's presigned bucket URL. */
const putToBucket = (session: { upload_url: string; headers: Record<string, string> }, data: Buffer) =>
  fetch(session.upload_url, { method: 'PUT', body: new Uint8Array(data), headers: session.headers });

async function storageKeyOf(fileId: string) {
  const { rows } = await t.db.query<{ storage_key: string; thumbnail_key: string | null }>(
    'SELECT storage_key, thumbnail_key FROM files WHERE id = $1',
    [fileId],
  );
  return rows[0]!;
}

/** GET of a media URL: our route redirects to the bucket; the bucket answers (with Range when asked). */
async function download(url: string, headers: Record<string, string> = {}) {
  const redirect = await t.request(url.slice(TEST_PUBLIC_URL.length), { headers, redirect: 'manual' });
  expect(redirect.status).toBe(302);
  const location = redirect.headers.get('location')!;
  expect(location.startsWith(`${s3.endpoint}/${s3.bucket}/${s3.prefix}/`)).toBe(true);
  return { redirect, answer: await fetch(location, { headers }) };
}

describe('object storage (STORAGE_URL=s3://…)', () => {
  it('an upload session presigns a PUT straight to the bucket, with the declared constraints', async () => {
    const data = unique('session');
    const session = await newSession({
      filename: 'a.txt',
      size: data.length,
      hash: sha(data),
      media_type: 'text/plain',
    });
    const url = new URL(session.upload_url);
    expect(`${url.origin}${url.pathname}`).toMatch(
      new RegExp(`^${s3.endpoint}/${s3.bucket}/${s3.prefix}/uploads/[a-z2-7]{2}/[a-z2-7]{26}$`),
    );
    expect(url.searchParams.get('X-Amz-SignedHeaders')).toBe(
      'content-length;content-type;host;x-amz-checksum-sha256',
    );
    expect(session.headers).toEqual({
      'Content-Type': 'text/plain',
      'x-amz-checksum-sha256': Buffer.from(sha(data), 'hex').toString('base64'),
    });
    expect(session.public_url).toBe(`${TEST_PUBLIC_URL}/media/${session.session_id}/a.txt`);
    expect(session.proxy_url).toBe(`/v2/files/upload/${session.session_id}`);
  });

  it('the proxy PUT writes the file to the bucket; its media URL redirects there and Range works', async () => {
    const data = Buffer.from(`0123456789abcdefghijklmnopqrstuvwxyz ${Math.random()}`);
    const session = await newSession({ filename: 'letters.txt', size: data.length, hash: sha(data) });
    const answer = await t.request(`/v2/files/upload/${session.session_id}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'text/plain' },
      body: new Uint8Array(data),
    });
    expect(answer.status).toBe(200);
    const { file } = (await answer.json()) as { file: FileRecord };
    expect(file).toMatchObject({
      id: session.session_id,
      size_bytes: data.length,
      hash: `sha256:${sha(data)}`,
    });
    const { storage_key } = await storageKeyOf(file.id);
    expect(storage_key).toMatch(/^files\//);
    expect(await t.services.blobs.stat(storage_key)).toEqual({ size: data.length });

    const whole = await download(file.url);
    expect(whole.redirect.headers.get('cache-control')).toMatch(/^private, max-age=\d+$/);
    expect(whole.answer.status).toBe(200);
    expect(whole.answer.headers.get('content-disposition')).toBe(
      `inline; filename="letters.txt"; filename*=UTF-8''letters.txt`,
    );
    expect(Buffer.from(await whole.answer.arrayBuffer()).equals(data)).toBe(true);

    const part = await download(file.url, { range: 'bytes=10-15' });
    expect(part.answer.status).toBe(206);
    expect(part.answer.headers.get('content-range')).toBe(`bytes 10-15/${data.length}`);
    expect(await part.answer.text()).toBe('abcdef');
  });

  it('a direct presigned upload lands in the bucket and is registered, measured and moved by import', async () => {
    const png = await solidPng(
      64,
      48,
      `#${Math.floor(Math.random() * 0xffffff)
        .toString(16)
        .padStart(6, '0')}`,
    );
    const session = await newSession({
      filename: 'dot.png',
      size: png.length,
      hash: sha(png),
      media_type: 'image/png',
    });
    expect((await putToBucket(session, png)).status).toBe(200);
    const file = await client.importFile({ body: { url: session.public_url } });
    expect(file).toMatchObject({
      id: session.session_id,
      origin: 'upload',
      media_type: 'image/png',
      size_bytes: png.length,
      hash: `sha256:${sha(png)}`,
      metadata: { width: 64, height: 48 },
    });
    // The bytes were copied to the file's own key: the presigned URL can no longer change the file.
    const { storage_key } = await storageKeyOf(file.id);
    expect(storage_key).toMatch(/^files\//);
    const uploadKey = new URL(session.upload_url).pathname.slice(`/${s3.bucket}/${s3.prefix}/`.length);
    expect(await t.services.blobs.stat(uploadKey)).toBeNull();
    expect(Buffer.from(await (await download(file.url)).answer.arrayBuffer()).equals(png)).toBe(true);
    // Importing again answers the same file.
    expect((await client.importFile({ body: { url: session.public_url } })).id).toBe(file.id);
  });

  it('refuses a direct upload whose bytes do not match the declared hash, keeps nothing, and takes a new PUT', async () => {
    const data = unique('declared');
    const other = Buffer.alloc(data.length, 'x');
    const session = await newSession({ filename: 'b.txt', size: data.length, hash: sha(data) });
    const uploadKey = new URL(session.upload_url).pathname.slice(`/${s3.bucket}/${s3.prefix}/`.length);
    // s3rver checks no checksum (AWS S3, MinIO and R2 would refuse this PUT): registration must.
    expect((await putToBucket(session, other)).status).toBe(200);
    const refused = await failure(client.importFile({ body: { url: session.public_url } }));
    expect(refused).toMatchObject({ status: 422, code: 'invalid_request' });
    expect(refused?.message).toContain('hashes to');
    expect(await t.services.blobs.stat(uploadKey)).toBeNull();
    const { rows } = await t.db.query('SELECT 1 FROM files WHERE id = $1', [session.session_id]);
    expect(rows).toEqual([]);

    // Nothing uploaded yet is a conflict, not a file.
    expect(await failure(client.importFile({ body: { url: session.public_url } }))).toMatchObject({
      status: 409,
    });
    expect((await putToBucket(session, data)).status).toBe(200);
    const file = await client.importFile({ body: { url: session.public_url } });
    expect(file.hash).toBe(`sha256:${sha(data)}`);
  });

  it('refuses a direct upload longer than the declared size', async () => {
    const data = unique('short');
    const session = await newSession({ filename: 'c.txt', size: data.length, hash: sha(data) });
    const longer = Buffer.concat([data, Buffer.from('and more')]);
    expect((await fetch(session.upload_url, { method: 'PUT', body: new Uint8Array(longer) })).status).toBe(
      200,
    );
    expect(await failure(client.importFile({ body: { url: session.public_url } }))).toMatchObject({
      status: 413,
    });
  });

  it('a video put straight into the bucket is measured, gets a poster frame, and seeks with Range', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mc-s3-video-'));
    try {
      const clip = await fs.readFile((await makeTestMedia(dir)).clip);
      // No hash declared: the presigned PUT is held to type and length only.
      const session = await newSession({ filename: 'clip.mp4', size: clip.length, media_type: 'video/mp4' });
      expect(session.headers).toEqual({ 'Content-Type': 'video/mp4' });
      expect((await putToBucket(session, clip)).status).toBe(200);
      const file = await client.importFile({ body: { url: session.public_url } });
      expect(file).toMatchObject({
        media_type: 'video/mp4',
        metadata: { width: 320, height: 240, video_codec: 'h264' },
      });
      expect(file.metadata.duration_seconds).toBeCloseTo(2, 0);

      // How a player seeks: from an offset to the end (s3rver reads no suffix ranges; S3 does).
      const seek = await download(file.url, { range: 'bytes=1000-' });
      expect(seek.answer.status).toBe(206);
      expect(seek.answer.headers.get('content-range')).toBe(`bytes 1000-${clip.length - 1}/${clip.length}`);
      expect(Buffer.from(await seek.answer.arrayBuffer()).equals(clip.subarray(1000))).toBe(true);

      const poster = await download(file.thumbnail_url!);
      expect(poster.answer.headers.get('content-type')).toBe('image/webp');
      expect((await sharp(Buffer.from(await poster.answer.arrayBuffer())).metadata()).format).toBe('webp');
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it("writes a job's output and its thumbnail to the bucket", async () => {
    const job = await waitForJob(
      client,
      (await client.createImage({ body: { model: 'local-sketch', prompt: 's3' } })).id,
    );
    expect(job.status).toBe('completed');
    const output = job.output!.outputs[0]!;
    const keys = await storageKeyOf(output.file_id!);
    expect(keys.storage_key).toMatch(/^files\//);
    expect((await t.services.blobs.stat(keys.storage_key))?.size).toBe(output.size_bytes);
    const picture = await download(output.url!);
    expect(picture.answer.headers.get('content-type')).toBe(output.media_type);
    expect(Number((await picture.answer.arrayBuffer()).byteLength)).toBe(output.size_bytes);

    const thumbnail = await download(output.thumbnail_url!);
    expect(thumbnail.answer.headers.get('content-type')).toBe('image/webp');
    const { thumbnail_key } = await storageKeyOf(output.file_id!);
    expect(thumbnail_key).toMatch(/^thumbnails\//);
    expect(await t.services.blobs.stat(thumbnail_key!)).not.toBeNull();
  });
});
