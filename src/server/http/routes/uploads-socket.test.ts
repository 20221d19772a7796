import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UploadSession } from '../../../contract/files.ts';
import { createTestApp, signUp, type TestApp } from '../../testing/test-app.ts';
import { createApiServer } from '../node-server.ts';

/*
 * Uploads over a real socket (the Node server hands the handler its IncomingMessage, which the in-process
 * tests never see): bytes stream in several writes, and a body longer than declared still gets its 413.
 */

let t: TestApp;
let key: string;
let dataDir: string;
let server: http.Server;
let port: number;
beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mc-upload-socket-'));
  t = await createTestApp({ DATA_DIR: dataDir }, { work: false });
  key = (await signUp(t)).api_key;
  server = createApiServer(t.app.fetch, { hostname: '127.0.0.1' });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  await t.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

/** PUT in chunks, without Content-Length when `chunked`; answers status and body. */
function put(pathname: string, chunks: Buffer[], chunked: boolean) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const total = chunks.reduce((n, c) => n + c.length, 0);
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        path: pathname,
        method: 'PUT',
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': 'application/octet-stream',
          ...(chunked ? {} : { 'content-length': String(total) }),
        },
      },
      (response) => {
        let body = '';
        response.on('data', (c) => {
          body += c;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    request.on('error', reject);
    (async () => {
      for (const chunk of chunks) {
        if (!request.write(chunk)) await new Promise((r) => request.once('drain', r));
      }
      request.end();
    })();
  });
}

async function newSession(size: number, hash?: string) {
  const session = UploadSession.parse(
    await t.clientFor(key).createUploadSession({ body: { size, ...(hash ? { hash } : {}) } }),
  );
  if (session.deduplicated) throw new Error('unexpected dedupe');
  return session;
}

describe('uploads over a socket', () => {
  it('streams a 3 MB body in many writes and registers it', async () => {
    const chunks = Array.from({ length: 48 }, (_, i) => Buffer.alloc(65_536, i));
    const all = Buffer.concat(chunks);
    const session = await newSession(all.length, createHash('sha256').update(all).digest('hex'));
    const answer = await put(session.proxy_url, chunks, true);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({
      file_id: session.session_id,
      file: { size_bytes: all.length },
    });
  });

  it('answers 413 to a body past the declared size, whether Content-Length says so or not', async () => {
    const chunks = Array.from({ length: 16 }, () => Buffer.alloc(65_536, 1));
    const session = await newSession(100_000);
    for (const chunked of [false, true]) {
      const answer = await put(session.proxy_url, chunks, chunked);
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.body).error.code).toBe('payload_too_large');
    }
    const direct = new URL(session.upload_url);
    expect((await put(`${direct.pathname}${direct.search}`, chunks, true)).status).toBe(413);
    // Nothing kept, and the session still takes a proper upload.
    const ok = await put(session.proxy_url, [Buffer.alloc(100_000, 2)], false);
    expect(ok.status).toBe(200);
  });
});
