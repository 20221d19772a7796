import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiError } from '../../../client/api-error.ts';
import { FileRecord } from '../../../contract/files.ts';
import { createTestApp, signUp, type TestApp } from '../../testing/test-app.ts';

/*
 * POST /v2/files/import of external URLs: fetched like job inputs (here a local server, allowed by
 * ALLOW_PRIVATE_NETWORK; the default refusal is in uploads.test.ts), streamed to storage, type from bytes.
 */

let t: TestApp;
let client: ReturnType<TestApp['clientFor']>;
let dataDir: string;
let origin: string;
let png: Buffer;
let server: http.Server;
beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mc-import-'));
  t = await createTestApp({ DATA_DIR: dataDir, ALLOW_PRIVATE_NETWORK: 'true' }, { work: false });
  client = t.clientFor((await signUp(t)).api_key);
  png = await sharp({ create: { width: 20, height: 10, channels: 3, background: '#00aa00' } })
    .png()
    .toBuffer();
  server = http.createServer((req, res) => {
    if (req.url === '/pictures/green%20leaf.png') {
      res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(png);
    } else if (req.url === '/moved') {
      res.writeHead(302, { location: '/pictures/green%20leaf.png' }).end();
    } else if (req.url === '/notes') {
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('some notes');
    } else res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  await t.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (e: unknown) => e as ApiError,
  );

describe('POST /v2/files/import (external URL)', () => {
  it('fetches, names it after the URL, detects the type and files it (origin import)', async () => {
    const folder = (await client.createFolder({ body: { name: 'Imports' } })).workspace;
    const file = FileRecord.parse(
      await client.importFile({ body: { url: `${origin}/moved` }, headers: { 'x-workspace-id': 'imports' } }),
    );
    expect(file).toMatchObject({
      name: 'green leaf.png',
      media_type: 'image/png',
      size_bytes: png.length,
      origin: 'import',
      workspace_id: folder.id,
      metadata: { width: 20, height: 10 },
    });
    const served = await t.request(new URL(file.url).pathname);
    expect(Buffer.from(await served.arrayBuffer()).equals(png)).toBe(true);
  });

  it('keeps the declared type when the bytes say nothing, and takes a given name', async () => {
    const file = await client.importFile({ body: { url: `${origin}/notes`, name: 'notes.txt' } });
    expect(file).toMatchObject({
      name: 'notes.txt',
      media_type: 'text/plain; charset=utf-8',
      size_bytes: 10,
    });
  });

  it('copies one of our own files by its URL', async () => {
    const stranger = t.clientFor((await signUp(t)).api_key);
    // Bytes this team does not have yet (it imported the green PNG above: that would be answered).
    const bytes = await sharp({ create: { width: 20, height: 10, channels: 3, background: '#aa0000' } })
      .png()
      .toBuffer();
    const theirs = await stranger.uploadFile({
      body: { filename: 'shared.png', data: bytes.toString('base64') },
    });
    const copy = await client.importFile({ body: { url: theirs.url } });
    expect(copy).toMatchObject({ name: 'shared.png', origin: 'import', hash: theirs.hash });
    expect(copy.id).not.toBe(theirs.id);
  });

  it('answers the file the team already has when the URL gives the same bytes, and keeps no copy', async () => {
    const own = t.clientFor((await signUp(t)).api_key);
    const folder = (await own.createFolder({ body: { name: 'Leaves' } })).workspace;
    const uploaded = await own.uploadFile({ body: { filename: 'leaf.png', data: png.toString('base64') } });
    const blobs = async () =>
      (await fs.readdir(path.join(dataDir, 'blobs'), { recursive: true, withFileTypes: true })).filter((e) =>
        e.isFile(),
      ).length;
    const before = await blobs();
    const imported = await own.importFile({
      body: { url: `${origin}/pictures/green%20leaf.png` },
      headers: { 'x-workspace-id': folder.id },
    });
    // The same answer as the upload paths: the file, where it is (not moved into the folder named).
    expect(imported).toEqual(uploaded);
    expect(await blobs()).toBe(before);
    const again = await own.importFile({ body: { url: `${origin}/moved` } });
    expect(again.id).toBe(uploaded.id);
    expect((await own.listFiles({ query: {} })).data.map((f) => f.id)).toEqual([uploaded.id]);
    // Another team's URL of the same bytes is no copy for this team either.
    const stranger = t.clientFor((await signUp(t)).api_key);
    const theirs = await stranger.uploadFile({ body: { filename: 'x.png', data: png.toString('base64') } });
    expect((await own.importFile({ body: { url: theirs.url } })).id).toBe(uploaded.id);
  });

  it('answers 422 for a URL that does not answer 2xx, and 404 for an unknown file of ours', async () => {
    expect(await failure(client.importFile({ body: { url: `${origin}/missing.png` } }))).toMatchObject({
      status: 422,
    });
    const unknown = `${new URL(t.config.PUBLIC_URL).origin}/media/file_aaaaaaaaaaaaaaaaaaaaaaaa/x.png`;
    expect(await failure(client.importFile({ body: { url: unknown } }))).toMatchObject({ status: 404 });
  });
});
