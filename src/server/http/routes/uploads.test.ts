import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiError } from '../../../client/api-error.ts';
import { FileRecord, UPLOAD_MAX_BYTES, UploadSession } from '../../../contract/files.ts';
import { makeTestMedia } from '../../providers/local/ffmpeg-test-media.ts';
import { createTestApp, signUp, TEST_PUBLIC_URL, type TestApp } from '../../testing/test-app.ts';

let t: TestApp;
let dataDir: string;
let key: string;
let client: ReturnType<TestApp['clientFor']>;
let png: Buffer;
beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mc-uploads-'));
  t = await createTestApp({ DATA_DIR: dataDir }, { work: false });
  key = (await signUp(t)).api_key;
  client = t.clientFor(key);
  png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#2255aa' } })
    .png()
    .toBuffer();
});
afterAll(async () => {
  await t.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (e: unknown) => e as ApiError,
  );
const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const unique = (text: string) => Buffer.from(`${text} ${Math.random()} ${Date.now()}`);

/** A new session (never deduplicated) for `data`. */
async function session(body: Record<string, unknown>, headers?: Record<string, string>) {
  const answer = UploadSession.parse(
    await client.createUploadSession({ body: body as never, headers: headers as never }),
  );
  if (answer.deduplicated) throw new Error('unexpected dedupe');
  return answer;
}

function proxyPut(sessionId: string, data: Buffer, token = key, contentType = 'application/octet-stream') {
  return t.request(`/v2/files/upload/${sessionId}`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
    body: new Uint8Array(data),
  });
}

function directPut(uploadUrl: string, data: Buffer) {
  const url = new URL(uploadUrl);
  return t.request(`${url.pathname}${url.search}`, { method: 'PUT', body: new Uint8Array(data) });
}

async function errorOf(response: Response) {
  return { status: response.status, ...((await response.json()) as { error: { code: string } }).error };
}

describe('POST /v2/files/upload-session', () => {
  it('answers a new session with every field of spec 2.5', async () => {
    const data = unique('a');
    const s = await session({ filename: 'a.txt', size: data.length, hash: sha(data) });
    expect(s).toMatchObject({
      deduplicated: false,
      proxy_url: `/v2/files/upload/${s.session_id}`,
      headers: { 'Content-Type': 'application/octet-stream' },
      expires_in: 3600,
      hash: `sha256:${sha(data)}`,
      public_url: `${TEST_PUBLIC_URL}/media/${s.session_id}/a.txt`,
    });
    expect(s.upload_url).toMatch(
      new RegExp(`^${TEST_PUBLIC_URL}/uploads/${s.session_id}\\?expires=\\d+&signature=[A-Za-z0-9_-]+$`),
    );
    const expires = Number(new URL(s.upload_url).searchParams.get('expires'));
    expect(Math.abs(expires - (Date.now() / 1000 + 3600))).toBeLessThan(60);
  });

  it('takes size 1 and 209715200, and refuses 0 and 209715201 naming size', async () => {
    expect((await session({ size: 1 })).deduplicated).toBe(false);
    expect((await session({ size: UPLOAD_MAX_BYTES })).deduplicated).toBe(false);
    for (const size of [0, UPLOAD_MAX_BYTES + 1]) {
      const e = await failure(client.createUploadSession({ body: { size } }));
      expect(e).toMatchObject({ status: 422, code: 'invalid_request' });
      expect(JSON.stringify(e?.details)).toContain('"size"');
    }
  });

  it('accepts the hash with or without the prefix, any case, and answers sha256:<hex>', async () => {
    const hex = sha(unique('h'));
    expect((await session({ hash: hex.toUpperCase() })).hash).toBe(`sha256:${hex}`);
    expect((await session({ hash: `sha256:${hex}` })).hash).toBe(`sha256:${hex}`);
    const e = await failure(client.createUploadSession({ body: { hash: 'sha256:abc' } }));
    expect(e).toMatchObject({ status: 422 });
    expect(JSON.stringify(e?.details)).toContain('"hash"');
  });

  it('answers an existing file of the team by its hash, not another team’s', async () => {
    const data = unique('dedupe');
    const s = await session({ filename: 'd.txt', size: data.length, hash: sha(data) });
    const put = await proxyPut(s.session_id, data);
    expect(put.status).toBe(200);
    for (const hash of [sha(data), `sha256:${sha(data)}`]) {
      const again = UploadSession.parse(await client.createUploadSession({ body: { hash } }));
      expect(again).toMatchObject({
        deduplicated: true,
        file_id: s.session_id,
        session_id: s.session_id,
        url: s.public_url,
        public_url: s.public_url,
        hash: `sha256:${sha(data)}`,
      });
    }
    const stranger = t.clientFor((await signUp(t)).api_key);
    const theirs = UploadSession.parse(await stranger.createUploadSession({ body: { hash: sha(data) } }));
    expect(theirs.deduplicated).toBe(false);
    // A deleted file is not offered again.
    await client.deleteFile({ params: { id: s.session_id } });
    expect(
      UploadSession.parse(await client.createUploadSession({ body: { hash: sha(data) } })).deduplicated,
    ).toBe(false);
  });

  it('files into the folder of X-Workspace-Id (id or slug), which wins over workspace_id', async () => {
    const a = (await client.createFolder({ body: { name: 'Header folder' } })).workspace;
    const b = (await client.createFolder({ body: { name: 'Body folder' } })).workspace;
    const data = unique('folder');
    const s = await session({ size: data.length, workspace_id: b.id }, { 'x-workspace-id': a.slug });
    const put = (await (await proxyPut(s.session_id, data)).json()) as { file: FileRecord };
    expect(put.file.workspace_id).toBe(a.id);
    const data2 = unique('folder2');
    const s2 = await session({ size: data2.length, workspace_id: b.slug });
    const put2 = (await (await proxyPut(s2.session_id, data2)).json()) as { file: FileRecord };
    expect(put2.file.workspace_id).toBe(b.id);
    const stranger = t.clientFor((await signUp(t)).api_key);
    expect(
      await failure(stranger.createUploadSession({ body: {}, headers: { 'x-workspace-id': a.id } })),
    ).toMatchObject({ status: 404, code: 'not_found' });
  });
});

describe('PUT /v2/files/upload/{session_id} (proxy)', () => {
  it('stores the bytes, detects the type, registers the file and serves it', async () => {
    const s = await session({ filename: 'blue.png', size: png.length, hash: sha(png) });
    const response = await proxyPut(s.session_id, png);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { file_id: string; file: FileRecord };
    expect(body.file_id).toBe(s.session_id);
    expect(FileRecord.parse(body.file)).toMatchObject({
      id: s.session_id,
      name: 'blue.png',
      media_type: 'image/png',
      size_bytes: png.length,
      hash: `sha256:${sha(png)}`,
      url: s.public_url,
      origin: 'upload',
      metadata: { width: 64, height: 48 },
      thumbnail_url: `${TEST_PUBLIC_URL}/media/${s.session_id}/thumbnail.webp`,
    });
    const served = await t.request(new URL(s.public_url).pathname);
    expect(Buffer.from(await served.arrayBuffer()).equals(png)).toBe(true);
    const thumb = await t.request(new URL(body.file.thumbnail_url!).pathname);
    expect(thumb.status).toBe(200);
    expect(thumb.headers.get('content-type')).toBe('image/webp');
    expect(await client.getFile({ params: { id: s.session_id } })).toEqual(
      await client.getFile({ params: { id: s.session_id } }),
    );
  });

  it('reads duration, size and codecs of video and audio from their bytes', async () => {
    const media = await makeTestMedia(dataDir);
    const clip = await fs.readFile(media.clip);
    const s = await session({ filename: 'clip.mp4', size: clip.length });
    const { file } = (await (await proxyPut(s.session_id, clip)).json()) as { file: FileRecord };
    expect(file.media_type).toBe('video/mp4');
    expect(file.metadata).toMatchObject({ width: 320, height: 240, video_codec: 'h264', audio_codec: 'aac' });
    expect(file.metadata.duration_seconds).toBeCloseTo(2, 0);
    const wav = await fs.readFile(media.wav);
    const w = await session({ filename: 'tone.wav', size: wav.length });
    const { file: tone } = (await (await proxyPut(w.session_id, wav)).json()) as { file: FileRecord };
    expect(tone).toMatchObject({ media_type: 'audio/wav', metadata: { sample_rate: 44100, channels: 1 } });
  });

  it('takes a session without size or hash (up to 200 MB)', async () => {
    const data = unique('free');
    const s = await session({ media_type: 'text/plain' });
    const response = await proxyPut(s.session_id, data);
    expect(response.status).toBe(200);
    const { file } = (await response.json()) as { file: FileRecord };
    expect(file).toMatchObject({ name: 'upload', media_type: 'text/plain', size_bytes: data.length });
  });

  it('refuses a body longer than declared with 413 and keeps nothing; the session can be used again', async () => {
    const data = unique('long');
    const s = await session({ size: data.length - 1 });
    const before = await blobCount();
    expect(await errorOf(await proxyPut(s.session_id, data))).toMatchObject({
      status: 413,
      code: 'payload_too_large',
    });
    // Without Content-Length (a stream), the cut happens while reading.
    const streamed = await t.request(`/v2/files/upload/${s.session_id}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${key}` },
      body: new ReadableStream({
        start(controller) {
          controller.enqueue(data.subarray(0, 5));
          controller.enqueue(data.subarray(5));
          controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
    expect(await blobCount()).toBe(before);
    expect(await failure(client.getFile({ params: { id: s.session_id } }))).toMatchObject({ status: 404 });
    expect((await proxyPut(s.session_id, data.subarray(0, data.length - 1))).status).toBe(200);
  });

  it('refuses a shorter body or another hash with 422 and keeps nothing', async () => {
    const data = unique('hash');
    const short = await session({ size: data.length + 1 });
    const before = await blobCount();
    const e1 = await errorOf(await proxyPut(short.session_id, data));
    expect(e1).toMatchObject({ status: 422, code: 'invalid_request' });
    const wrong = await session({ size: data.length, hash: sha(Buffer.from('other')) });
    const e2 = await errorOf(await proxyPut(wrong.session_id, data));
    expect(e2).toMatchObject({ status: 422, code: 'invalid_request' });
    expect(JSON.stringify(e2)).toContain('hash');
    expect(await blobCount()).toBe(before);
  });

  it('takes exactly one upload: a second is 409', async () => {
    const data = unique('once');
    const s = await session({ size: data.length });
    expect((await proxyPut(s.session_id, data)).status).toBe(200);
    expect(await errorOf(await proxyPut(s.session_id, data))).toMatchObject({
      status: 409,
      code: 'conflict',
    });
    expect((await directPut(s.upload_url, data)).status).toBe(409);
  });

  it('refuses an expired session with 404', async () => {
    const data = unique('late');
    const s = await session({ size: data.length });
    await t.db.query(`UPDATE upload_sessions SET expires_at = now() - interval '1 second' WHERE id = $1`, [
      s.session_id,
    ]);
    expect(await errorOf(await proxyPut(s.session_id, data))).toMatchObject({
      status: 404,
      code: 'not_found',
    });
  });

  it("answers another team's session as unknown, and needs a bearer", async () => {
    const data = unique('theirs');
    const s = await session({ size: data.length });
    const stranger = (await signUp(t)).api_key;
    expect((await proxyPut(s.session_id, data, stranger)).status).toBe(404);
    const anonymous = await t.request(`/v2/files/upload/${s.session_id}`, { method: 'PUT', body: data });
    expect(anonymous.status).toBe(401);
    expect((await proxyPut(s.session_id, data)).status).toBe(200);
  });
});

describe('PUT {upload_url} (direct, presigned) and POST /v2/files/import', () => {
  it('stores the bytes without a bearer; import with public_url registers them once', async () => {
    const data = unique('direct');
    const s = await session({ filename: 'direct.txt', size: data.length, hash: `sha256:${sha(data)}` });
    // Before the bytes arrive, import is refused.
    expect(await failure(client.importFile({ body: { url: s.public_url } }))).toMatchObject({ status: 409 });
    const put = await directPut(s.upload_url, data);
    expect(put.status).toBe(204);
    // Not a file until it is registered.
    expect(await failure(client.getFile({ params: { id: s.session_id } }))).toMatchObject({ status: 404 });
    const stranger = t.clientFor((await signUp(t)).api_key);
    expect(await failure(stranger.importFile({ body: { url: s.public_url } }))).toMatchObject({
      status: 404,
    });
    const file = FileRecord.parse(await client.importFile({ body: { url: s.public_url } }));
    expect(file).toMatchObject({
      id: s.session_id,
      name: 'direct.txt',
      origin: 'upload',
      size_bytes: data.length,
    });
    expect(await client.importFile({ body: { url: s.public_url } })).toEqual(file);
    expect((await directPut(s.upload_url, data)).status).toBe(409);
  });

  it('refuses a tampered, foreign or expired signature', async () => {
    const data = unique('sig');
    const s = await session({ size: data.length });
    const other = await session({ size: data.length });
    const url = new URL(s.upload_url);
    const forged = `${url.pathname}?expires=${Number(url.searchParams.get('expires')) + 10}&signature=${url.searchParams.get('signature')}`;
    const refused = await t.request(forged, { method: 'PUT', body: data });
    expect(refused.status).toBe(403);
    // Browsers on another origin can read the refusal, and may send the PUT at all (preflight).
    expect(refused.headers.get('access-control-allow-origin')).toBe('*');
    const preflight = await t.request(url.pathname + url.search, { method: 'OPTIONS' });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-methods')).toBe('PUT');
    const moved = `/uploads/${other.session_id}${url.search}`;
    expect((await t.request(moved, { method: 'PUT', body: data })).status).toBe(403);
    expect((await t.request(url.pathname, { method: 'PUT', body: data })).status).toBe(403);
    // The direct PUT applies the same size rule.
    expect((await directPut(s.upload_url, Buffer.concat([data, data]))).status).toBe(413);
    await t.db.query(`UPDATE upload_sessions SET expires_at = now() - interval '1 second' WHERE id = $1`, [
      s.session_id,
    ]);
    expect((await directPut(s.upload_url, data)).status).toBe(404);
  });

  it('forgets a direct upload never registered, a day after its session expired', async () => {
    const data = unique('forgotten');
    const s = await session({ size: data.length });
    expect((await directPut(s.upload_url, data)).status).toBe(204);
    const blobs = await blobCount();
    // Within the grace day, import still registers it.
    await t.db.query(`UPDATE upload_sessions SET expires_at = now() - interval '23 hours' WHERE id = $1`, [
      s.session_id,
    ]);
    await session({});
    expect(await blobCount()).toBe(blobs);
    await t.db.query(`UPDATE upload_sessions SET expires_at = now() - interval '25 hours' WHERE id = $1`, [
      s.session_id,
    ]);
    await session({});
    expect(await blobCount()).toBe(blobs - 1);
    expect(await failure(client.importFile({ body: { url: s.public_url } }))).toMatchObject({ status: 404 });
  });

  it('refuses to import from a private address (the job input URL rules)', async () => {
    expect(
      await failure(client.importFile({ body: { url: 'http://127.0.0.1:9/secret.png' } })),
    ).toMatchObject({ status: 403, code: 'forbidden' });
  });
});

describe('the same bytes uploaded at the same moment (two tabs)', () => {
  /** Live files of the team holding these bytes. */
  async function storedCopies(data: Buffer): Promise<number> {
    const { rows } = await t.services.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM files WHERE sha256 = $1 AND deleted_at IS NULL',
      [sha(data)],
    );
    return rows[0]!.n;
  }

  /** Two sessions asked before either upload arrived: neither can be told the other's file exists yet. */
  async function twoSessions(data: Buffer) {
    const body = { filename: 'same.txt', size: data.length, hash: sha(data) };
    return Promise.all([session(body), session(body)]);
  }

  it('stores one file through the proxy: both PUTs answer it, one copy of the bytes is kept', async () => {
    const data = unique('two tabs, proxy');
    const [a, b] = await twoSessions(data);
    const blobsBefore = await blobCount();
    const answers = await Promise.all([proxyPut(a.session_id, data), proxyPut(b.session_id, data)]);
    expect(answers.map((r) => r.status)).toEqual([200, 200]);
    const [first, second] = (await Promise.all(answers.map((r) => r.json()))) as { file: FileRecord }[];
    expect(first!.file.id).toBe(second!.file.id);
    expect([a.session_id, b.session_id]).toContain(first!.file.id);
    expect(await storedCopies(data)).toBe(1);
    expect(await blobCount()).toBe(blobsBefore + 1);
  });

  it('stores one file through presigned PUTs and imports: both imports answer it', async () => {
    const data = unique('two tabs, presigned');
    const [a, b] = await twoSessions(data);
    const puts = await Promise.all([directPut(a.upload_url, data), directPut(b.upload_url, data)]);
    expect(puts.map((r) => r.status)).toEqual([204, 204]);
    const files = await Promise.all(
      [a, b].map((s) => client.importFile({ body: { url: s.public_url } }).then((f) => FileRecord.parse(f))),
    );
    expect(files[0]!.id).toBe(files[1]!.id);
    expect(await storedCopies(data)).toBe(1);
    // Importing the recognised session again answers the same file, not a 404.
    const recognised = files[0]!.id === a.session_id ? b : a;
    expect((await client.importFile({ body: { url: recognised.public_url } })).id).toBe(files[0]!.id);
  });

  it('stores one file when one tab goes through the proxy and the other through the presigned URL', async () => {
    const data = unique('two tabs, mixed');
    const [a, b] = await twoSessions(data);
    expect((await directPut(b.upload_url, data)).status).toBe(204);
    const [proxied, imported] = await Promise.all([
      proxyPut(a.session_id, data).then(async (r) => ((await r.json()) as { file: FileRecord }).file),
      client.importFile({ body: { url: b.public_url } }),
    ]);
    expect(proxied.id).toBe(imported.id);
    expect(await storedCopies(data)).toBe(1);
  });
});

/** Blobs on disk (temporary files included): what a refused upload must not leave behind. */
async function blobCount(): Promise<number> {
  const entries = await fs.readdir(path.join(dataDir, 'blobs'), { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).length;
}
