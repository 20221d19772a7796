import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiError } from '../../../client/api-error.ts';
import { FfmpegResizeV1Job } from '../../../contract/generation.ts';
import { Job } from '../../../contract/jobs.ts';
import { freshJob } from '../../../contract/test-fixtures.ts';
import { storeFile } from '../../domain/files/files.ts';
import { makeTestMedia, probeBytes, type TestMedia } from '../../providers/local/ffmpeg-test-media.ts';
import { createTestApp, signUp, TEST_PUBLIC_URL, type TestApp } from '../../testing/test-app.ts';
import { waitForTerminal } from '../../testing/wait-for-terminal.ts';
import { resizeCacheKey, toResizeV1Job } from './ffmpeg-v1.ts';

let t: TestApp;
let key: string;
let dir: string;
let media: TestMedia;
/** The test clip (320x240, 2 s, with sound) stored as one of the team's own files. */
let clipUrl: string;
let garbageUrl: string;

beforeAll(async () => {
  t = await createTestApp({ SIGNUP_CREDITS: '1000' });
  key = (await signUp(t)).api_key;
  const teamId = (await t.clientFor(key).getMe()).team.id;
  dir = await mkdtemp(path.join(os.tmpdir(), 'ffmpeg-v1-test-'));
  media = await makeTestMedia(dir);
  const own = async (file: string, name: string, mediaType: string) =>
    (await storeFile(t.services, { teamId, name, mediaType, data: await readFile(file), origin: 'upload' }))
      .url;
  clipUrl = await own(media.clip, 'clip.mp4', 'video/mp4');
  garbageUrl = await own(media.garbage, 'garbage.mp4', 'video/mp4');
});
afterAll(async () => {
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (e: unknown) => e as ApiError,
  );

/** Fetches an output through the app's own media route and probes it with ffmpeg. */
async function probeOutput(url: string) {
  const response = await t.request(new URL(url).pathname);
  expect(response.status).toBe(200);
  return probeBytes(dir, path.basename(new URL(url).pathname), Buffer.from(await response.arrayBuffer()));
}

describe('POST /v2/ffmpeg on the local engine', () => {
  it('runs the declared operations on our own file and stores the result', async () => {
    const client = t.clientFor(key);
    const before = (await client.getMe()).balance_cents;
    const created = Job.parse(
      await client.runFfmpeg({
        body: {
          model: 'ffmpeg',
          files: [{ url: clipUrl }],
          operations: [
            { op: 'trim', start: 0, duration: 1 },
            { op: 'resize', width: 96, height: 64, fit: 'stretch' },
          ],
        },
      }),
    );
    expect(created).toMatchObject({ status: 'queued', tool: 'ffmpeg', provider_model: 'local:ffmpeg' });
    const done = await waitForTerminal(t.clientFor(key), created.id);
    expect(done.error).toBeNull();
    expect(done).toMatchObject({ status: 'completed', provider_status: 'succeeded', actual_cost_cents: 1 });
    expect(done.pricing).toMatchObject({ cached: false, billed_units: { jobs: 1 }, billing: 'per_job' });
    const output = done.output!.outputs[0]!;
    expect(output.media_type).toBe('video/mp4');
    expect(output.url).toMatch(new RegExp(`^${TEST_PUBLIC_URL}/media/file_.+/resized-[0-9a-z]+\\.mp4$`));
    const info = await probeOutput(output.url!);
    expect(info.video).toMatchObject({ codec: 'h264', width: 96, height: 64 });
    expect(info.durationSeconds).toBeLessThan(1.2);
    expect((await client.getMe()).balance_cents).toBe(before - 1);
    const lineage = await t.db.query('SELECT role FROM file_lineage WHERE job_id = $1 ORDER BY role', [
      done.id,
    ]);
    expect(lineage.rows.map((r) => r.role)).toEqual(['input', 'output']);
  });

  it('fails with invalid_input and ffmpeg’s reason for a file that is not media', async () => {
    const created = await t.clientFor(key).runFfmpeg({
      body: { files: [{ url: garbageUrl }], operations: [{ op: 'thumbnail', at: 0 }] },
    });
    const done = await waitForTerminal(t.clientFor(key), created.id);
    expect(done.status).toBe('failed');
    expect(done.error).toMatchObject({
      code: 'invalid_input',
      message: expect.stringContaining('Invalid data found when processing input'),
    });
  });
});

describe('POST /v1/ffmpeg/resize (spec 9)', () => {
  it('answers 202 in the v1 shape, then the job resizes the video (cover by default)', async () => {
    const response = await t.request('/v1/ffmpeg/resize', {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: clipUrl, width: 160, height: 160 }),
    });
    expect(response.status).toBe(202);
    expect(response.headers.get('ratelimit-limit')).toBe('300');
    const created = FfmpegResizeV1Job.parse(await response.json());
    expect(created).toEqual({
      job_id: expect.stringMatching(/^job_/),
      status: 'queued',
      model: 'local:ffmpeg',
      created_at: expect.any(String),
      cache: { hit: false, key: expect.stringMatching(/^[0-9a-f]{64}$/) },
    });
    expect(created.cache.key).toBe(resizeCacheKey({ url: clipUrl, width: 160, height: 160, fit: 'cover' }));

    const done = await waitForTerminal(t.clientFor(key), created.job_id);
    expect(done.input).toEqual({
      model: 'ffmpeg',
      files: [{ url: clipUrl }],
      operations: [{ op: 'resize', width: 160, height: 160, fit: 'cover' }],
    });
    const v1 = FfmpegResizeV1Job.parse(toResizeV1Job(done, created.cache.key));
    expect(v1).toMatchObject({
      job_id: created.job_id,
      status: 'completed',
      model: 'local:ffmpeg',
      completed_at: done.completed_at,
      output: { url: done.output!.outputs[0]!.url, media_type: 'video/mp4' },
      cache: { hit: false, key: created.cache.key },
    });
    expect(v1.error).toBeUndefined();
    const info = await probeOutput(v1.output!.url);
    expect(info.video).toMatchObject({ width: 160, height: 160 });
    expect(info.durationSeconds).toBeCloseTo(2, 0);
  });

  it('passes fit through: contain fits inside without padding', async () => {
    const created = await t.clientFor(key).ffmpegResizeV1({
      body: { url: clipUrl, width: 160, height: 160, fit: 'contain' },
    });
    const done = await waitForTerminal(t.clientFor(key), created.job_id);
    expect(done.input).toMatchObject({ operations: [{ op: 'resize', fit: 'contain' }] });
    expect((await probeOutput(done.output!.outputs[0]!.url!)).video).toMatchObject({
      width: 160,
      height: 120,
    });
  });

  it('gives the same cache key to the same resize, another to another', () => {
    const cacheKey = (body: Partial<Parameters<typeof resizeCacheKey>[0]>) =>
      resizeCacheKey({ url: clipUrl, fit: 'cover', ...body });
    expect(cacheKey({ width: 64 })).toBe(cacheKey({ width: 64 }));
    expect(cacheKey({ width: 64, url: clipUrl.replace('http://', 'HTTP://') })).toBe(cacheKey({ width: 64 }));
    expect(cacheKey({ width: 64 })).not.toBe(cacheKey({ width: 64, fit: 'stretch' }));
    expect(cacheKey({ width: 64 })).not.toBe(cacheKey({ height: 64 }));
    expect(cacheKey({ width: 64 })).not.toBe(cacheKey({ width: 65 }));
  });

  it('reports a failed resize with an error string and no output', async () => {
    const created = await t.clientFor(key).ffmpegResizeV1({ body: { url: garbageUrl, width: 64 } });
    const done = await waitForTerminal(t.clientFor(key), created.job_id);
    const v1 = FfmpegResizeV1Job.parse(toResizeV1Job(done, created.cache.key));
    expect(v1.status).toBe('failed');
    expect(v1.error).toContain('Invalid data found when processing input');
    expect(v1.output).toBeUndefined();
    expect(v1.completed_at).toBeDefined();
  });

  it('maps every job status onto the v1 ones', () => {
    const job = freshJob({ tool: 'ffmpeg', provider_model: 'local:ffmpeg' });
    const statuses = ['queued', 'submitting', 'running', 'completed', 'failed', 'cancelled'] as const;
    expect(statuses.map((status) => toResizeV1Job({ ...job, status }, 'k').status)).toEqual([
      'queued',
      'processing',
      'processing',
      'completed',
      'failed',
      'cancelled',
    ]);
    expect(toResizeV1Job({ ...job, pricing: { ...job.pricing, cached: true } }, 'k').cache).toEqual({
      hit: true,
      key: 'k',
    });
  });

  it('checks the body (422) and the key (401)', async () => {
    const client = t.clientFor(key);
    const noUrl = await failure(client.ffmpegResizeV1({ body: { width: 10 } as never }));
    expect(noUrl).toMatchObject({ status: 422, code: 'invalid_request' });
    expect(noUrl?.message).toContain('url');
    const noSide = await failure(client.ffmpegResizeV1({ body: { url: clipUrl } }));
    expect(noSide).toMatchObject({ status: 422 });
    expect(noSide?.message).toContain('width');
    expect(await failure(client.ffmpegResizeV1({ body: { url: clipUrl, width: 0 } }))).toMatchObject({
      status: 422,
    });
    expect(
      await failure(client.ffmpegResizeV1({ body: { url: clipUrl, width: 10, fit: 'fill' as never } })),
    ).toMatchObject({ status: 422 });
    expect(
      await failure(t.clientFor(null).ffmpegResizeV1({ body: { url: clipUrl, width: 10 } })),
    ).toMatchObject({ status: 401, code: 'unauthorized' });
  });
});
