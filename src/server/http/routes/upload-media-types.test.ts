import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FileRecord, UploadSession } from '../../../contract/files.ts';
import { storeFile } from '../../domain/files/files.ts';
import { person } from '../../testing/team-test-support.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';

let t: TestApp;
let dataDir: string;
let p: Awaited<ReturnType<typeof person>>;
beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mc-upload-types-'));
  t = await createTestApp({ DATA_DIR: dataDir }, { work: false });
  p = await person(t);
});
afterAll(async () => {
  await t.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

const page = (n: number) => Buffer.from(`<!doctype html><script>fetch('/v2/api-keys') /* ${n} */</script>`);
const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(document.domain)"></svg>');

const upload = (filename: string, data: Buffer, media_type?: string) =>
  p.client.uploadFile({ body: { filename, data: data.toString('base64'), media_type } });

async function served(file: { url: string }) {
  const response = await t.request(new URL(file.url).pathname);
  expect(response.status).toBe(200);
  return response.headers;
}

describe('uploaded files are stored and served as what their bytes are', () => {
  it('stores HTML declared as an image as text/html, and serves it as an attachment, sandboxed', async () => {
    const file = await upload('cat.png', page(1), 'image/png');
    expect(file.media_type).toBe('text/html');
    const headers = await served(file);
    expect(headers.get('content-type')).toBe('text/html');
    expect(headers.get('content-disposition')).toMatch(/^attachment; filename="cat.png"/);
    expect(headers.get('content-security-policy')).toBe('sandbox');
    expect(headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('serves SVG, and HTML declared as such, as attachments', async () => {
    const drawing = await upload('logo.svg', svg, 'image/svg+xml');
    expect(drawing.media_type).toBe('image/svg+xml');
    expect((await served(drawing)).get('content-disposition')).toMatch(/^attachment;/);
    const html = await upload('page.html', page(2), 'text/html');
    expect((await served(html)).get('content-disposition')).toMatch(/^attachment;/);
  });

  it('stores script declared as JavaScript as plain text, and a real image inline whatever was declared', async () => {
    const script = await upload('app.js', Buffer.from('alert(document.cookie)'), 'text/javascript');
    expect(script.media_type).toBe('text/plain');
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#123456' } })
      .png()
      .toBuffer();
    const image = await upload('not-html.html', png, 'text/html');
    expect(image.media_type).toBe('image/png');
    const headers = await served(image);
    expect(headers.get('content-type')).toBe('image/png');
    expect(headers.get('content-disposition')).toMatch(/^inline;/);
  });

  it('detects the type of bytes sent through an upload session, not the declared one', async () => {
    const session = UploadSession.parse(
      await p.client.createUploadSession({ body: { media_type: 'image/png', filename: 'x.png' } }),
    );
    const response = await t.request(`/v2/files/upload/${session.session_id}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${p.apiKey}`, 'content-type': 'image/png' },
      body: new Uint8Array(svg),
    });
    expect(response.status).toBe(200);
    const { file } = (await response.json()) as { file: FileRecord };
    expect(file.media_type).toBe('image/svg+xml');
    expect((await served(file)).get('content-disposition')).toMatch(/^attachment;/);
  });

  it('serves a file stored earlier under an active type as an attachment', async () => {
    const stored = await storeFile(t.services, {
      teamId: p.teamId,
      name: 'old.html',
      mediaType: 'text/html; charset=utf-8',
      data: page(3),
      origin: 'upload',
    });
    expect((await served(stored)).get('content-disposition')).toMatch(/^attachment;/);
  });
});
