import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiError } from '../../../client/api-error.ts';
import { FileRecord } from '../../../contract/files.ts';
import { Job } from '../../../contract/jobs.ts';
import { createTestApp, signUp, TEST_PUBLIC_URL, type TestApp } from '../../testing/test-app.ts';

let t: TestApp;
let client: ReturnType<TestApp['clientFor']>;
let png: Buffer;
beforeAll(async () => {
  t = await createTestApp();
  client = t.clientFor((await signUp(t)).api_key);
  png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#cc3333' } })
    .png()
    .toBuffer();
});
afterAll(() => t.close());

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (e: unknown) => e as ApiError,
  );

describe('POST /v2/files (small direct upload) and GET /v2/files/{id}', () => {
  it('stores the bytes, detects their type, and serves them at the file URL', async () => {
    const file = FileRecord.parse(
      await client.uploadFile({ body: { filename: 'red.png', data: png.toString('base64') } }),
    );
    expect(file).toMatchObject({
      name: 'red.png',
      media_type: 'image/png',
      size_bytes: png.length,
      origin: 'upload',
    });
    expect(file.url.startsWith(`${TEST_PUBLIC_URL}/media/`)).toBe(true);
    const served = await t.request(new URL(file.url).pathname);
    expect(Buffer.from(await served.arrayBuffer()).equals(png)).toBe(true);
    expect(await client.getFile({ params: { id: file.id } })).toEqual(file);

    // An uploaded file is an input like any other.
    const job = await client.createImage({
      body: {
        model: 'local-upscale',
        files: [{ url: file.url }],
        provider_options: { local: { factor: 2 } },
      },
    });
    let done = Job.parse(await client.getJob({ params: { id: job.id } }));
    for (let i = 0; i < 200 && !['completed', 'failed'].includes(done.status); i++) {
      await new Promise((r) => setTimeout(r, 50));
      done = Job.parse(await client.getJob({ params: { id: job.id } }));
    }
    expect(done.status).toBe('completed');
  });

  it("answers another team's file like a missing one, and refuses what it cannot take", async () => {
    const file = await client.uploadFile({ body: { filename: 'mine.png', data: png.toString('base64') } });
    const stranger = t.clientFor((await signUp(t)).api_key);
    expect(await failure(stranger.getFile({ params: { id: file.id } }))).toMatchObject({ status: 404 });
    const tooBig = Buffer.alloc(512 * 1024 + 1).toString('base64');
    expect(await failure(client.uploadFile({ body: { filename: 'big.bin', data: tooBig } }))).toMatchObject({
      status: 422,
    });
    expect(
      await failure(
        client.uploadFile({
          body: { filename: 'x.png', data: png.toString('base64') },
          headers: { 'x-workspace-id': 'nope' },
        }),
      ),
    ).toMatchObject({ status: 404, code: 'not_found' });
  });
});
