import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { InputFile, RunInput } from '../../domain/jobs/provider.ts';
import { ProviderError } from '../../domain/jobs/provider-error.ts';
import { createFalAdapter, falAppPath } from './fal-adapter.ts';
import { imageSize } from './fal-inputs.ts';
import { mediaDurationSeconds } from './media-duration.ts';
import { createRemoteProvider, WebhookRejected } from './remote-provider.ts';
import {
  defaultFalBehaviour,
  type FalProtocolServer,
  startFalProtocolServer,
} from './testing/fal-protocol-server.ts';
import { runInput, testContext } from './testing/fal-replicate-test-context.ts';
import { mp4Of, PNG, wavOf } from './testing/fal-replicate-test-media.ts';
import { generatedInput } from './testing/generated-input.ts';

const KEY = 'fal-test-key';
let server: FalProtocolServer;

beforeAll(async () => {
  server = await startFalProtocolServer(KEY);
  server.files.set('out.png', { body: PNG, contentType: 'image/png' });
  server.files.set('out.mp4', { body: mp4Of(2), contentType: 'video/mp4' });
  server.files.set('out.wav', { body: wavOf(1), contentType: 'audio/wav' });
});
afterAll(() => server.close());
afterEach(() => {
  server.received.length = 0;
  Object.assign(server.behaviour, defaultFalBehaviour());
});

const config = (key = KEY) => ({
  FAL_KEY: key,
  FAL_QUEUE_URL: server.url,
  FAL_STORAGE_URL: server.url,
  FAL_JWKS_URL: server.jwksUrl,
});
const provider = (key = KEY) =>
  createRemoteProvider(createFalAdapter(config(key)), {
    firstPollMs: 10,
    maxPollMs: 20,
  });
const paths = () => server.received.map((r) => `${r.method} ${r.path}${r.query.size ? `?${r.query}` : ''}`);
const sent = () => server.received.find((r) => r.method === 'POST')?.body as Record<string, unknown>;
const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => Promise.reject(new Error('resolved')),
    (e) => e,
  );

describe('fal queue protocol', () => {
  it('submits with the model id, polls and fetches under the app path, and downloads the images', async () => {
    server.behaviour.result = (origin) => ({
      images: [
        { url: `${origin}/files/out.png`, content_type: 'image/png', file_name: 'a.png' },
        { url: `${origin}/files/out.png`, content_type: 'image/png' },
      ],
      seed: 7,
    });
    const { context, progress, submitted } = testContext();
    const input = runInput('image', 'fal', 'fal-ai/flux/dev', {
      prompt: 'a red fox',
      aspect_ratio: '16:9',
      provider_options: { fal: { num_images: 2, seed: 7 } },
    });
    const result = await provider().run(input, context);
    const id = result.providerJobId;

    expect(paths()).toEqual([
      'POST /fal-ai/flux/dev',
      `GET /fal-ai/flux/requests/${id}/status?logs=1`,
      `GET /fal-ai/flux/requests/${id}/status?logs=1`,
      `GET /fal-ai/flux/requests/${id}/status?logs=1`,
      `GET /fal-ai/flux/requests/${id}`,
      'GET /files/out.png',
      'GET /files/out.png',
    ]);
    expect(
      server.received.filter((r) => !r.path.startsWith('/files')).map((r) => r.headers.authorization),
    ).toEqual(Array(5).fill(`Key ${KEY}`));
    expect(sent()).toEqual({ prompt: 'a red fox', image_size: 'landscape_16_9', num_images: 2, seed: 7 });
    expect(submitted).toEqual([[id, 'IN_QUEUE']]);
    expect(result.outputs).toEqual([
      { kind: 'file', data: PNG, mediaType: 'image/png', name: 'a.png' },
      { kind: 'file', data: PNG, mediaType: 'image/png', name: 'out.png' },
    ]);
    expect(result.billedUnits).toEqual({ images: 2 });
    expect(result.providerStatus).toBe('COMPLETED');
    expect(progress.map(([, message]) => message)).toContain('Queued at fal (position 3)');
    expect(progress).toContainEqual([0.1 + 0.8 * 0.4, 'Running at fal (40%)']);
  });

  it('sends an edit source as a data: URI and maps the aspect ratio to the nearest allowed one', async () => {
    const { context } = testContext({ 'http://us/files/src.png': { body: PNG, contentType: 'image/png' } });
    const input = runInput('image', 'fal', 'fal-ai/flux-pro/kontext', {
      prompt: 'make it night',
      aspect_ratio: '17:9',
      files: [{ url: 'http://us/files/src.png' }],
    });
    await provider().run(input, context);
    expect(sent()).toEqual({
      prompt: 'make it night',
      aspect_ratio: '16:9',
      image_url: `data:image/png;base64,${PNG.toString('base64')}`,
    });
    expect(paths()[1]).toMatch(/^GET \/fal-ai\/flux-pro\/requests\/req-\d+\/status\?logs=1$/);
  });

  it('rounds a video duration to the family values and bills what it asked for', async () => {
    server.behaviour.result = (origin) => ({ video: { url: `${origin}/files/out.mp4` } });
    const { context } = testContext();
    const input = runInput(
      'video',
      'fal',
      'fal-ai/kling-video/v2.1/master/text-to-video',
      { prompt: 'waves', duration: 8, aspect_ratio: '4:5', provider_options: { fal: { cfg_scale: 0.3 } } },
      'second',
    );
    const result = await provider().run(input, context);
    expect(sent()).toEqual({ prompt: 'waves', duration: '10', aspect_ratio: '1:1', cfg_scale: 0.3 });
    expect(result.outputs[0]).toMatchObject({ kind: 'file', mediaType: 'video/mp4', name: 'out.mp4' });
    expect(result.billedUnits).toEqual({ seconds: 10 });
  });

  it('sends a lipsync video and audio by kind and bills the shorter of the two', async () => {
    server.behaviour.result = (origin) => ({
      video: { url: `${origin}/files/out.mp4`, content_type: 'video/mp4' },
    });
    const files = {
      'http://us/files/voice.wav': { body: wavOf(3), contentType: 'audio/wav' },
      'http://us/files/face.mp4': { body: mp4Of(4), contentType: 'video/mp4' },
    };
    const input = runInput(
      'video',
      'fal',
      'fal-ai/sync-lipsync/v2',
      { files: [{ url: 'http://us/files/voice.wav' }, { url: 'http://us/files/face.mp4' }] },
      'second',
    );
    const result = await provider().run(input, testContext(files).context);
    expect(Object.keys(sent())).toEqual(['video_url', 'audio_url']);
    expect(sent().video_url).toMatch(/^data:video\/mp4;base64,/);
    expect(sent().audio_url).toMatch(/^data:audio\/wav;base64,/);
    expect(result.billedUnits).toEqual({ seconds: 3 });
  });

  it('bills an upscaled video by the length of its input, and per job when the offer says so', async () => {
    server.behaviour.result = (origin) => ({ video: { url: `${origin}/files/out.mp4` } });
    const files = { 'http://us/files/clip.mp4': { body: mp4Of(4), contentType: 'video/mp4' } };
    const input = runInput(
      'video',
      'fal',
      'fal-ai/topaz/upscale/video',
      { files: [{ url: 'http://us/files/clip.mp4' }], provider_options: { fal: { upscale_factor: 4 } } },
      'job',
    );
    const result = await provider().run(input, testContext(files).context);
    expect(sent()).toEqual({
      video_url: `data:video/mp4;base64,${mp4Of(4).toString('base64')}`,
      upscale_factor: 4,
    });
    expect(result.billedUnits).toEqual({ seconds: 4, jobs: 1 });
  });

  it('refuses a model that needs a file it was not given, before submitting', async () => {
    const input = runInput('image', 'fal', 'fal-ai/esrgan', { prompt: 'sharper' });
    const error = await failureOf(provider().run(input, testContext().context));
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({
      code: 'provider_rejected',
      message: 'fal-ai/esrgan needs an image in files.',
    });
    expect(server.received).toEqual([]);
  });

  it('returns a whisper transcript inline and bills minutes to the last timestamp', async () => {
    server.behaviour.result = () => ({
      text: ' Olá mundo',
      chunks: [
        { timestamp: [0, 2.5], text: ' Olá' },
        { timestamp: [2.5, 90], text: ' mundo' },
      ],
      inferred_languages: ['pt'],
    });
    const files = { 'http://us/files/talk.wav': { body: wavOf(0.5), contentType: 'audio/wav' } };
    const input = runInput(
      'transcription',
      'fal',
      'fal-ai/whisper',
      { audio_url: 'http://us/files/talk.wav', language: 'pt-BR' },
      'minute',
    );
    const result = await provider().run(input, testContext(files).context);
    expect(sent()).toEqual({
      task: 'transcribe',
      chunk_level: 'segment',
      language: 'pt',
      audio_url: `data:audio/wav;base64,${wavOf(0.5).toString('base64')}`,
    });
    expect(result.outputs).toEqual([
      {
        kind: 'inline',
        mediaType: 'application/json',
        data: {
          text: 'Olá mundo',
          language: 'pt-BR',
          duration_seconds: 90,
          segments: [
            { start: 0, end: 2.5, text: 'Olá' },
            { start: 2.5, end: 90, text: 'mundo' },
          ],
        },
      },
    ]);
    expect(result.billedUnits).toEqual({ minutes: 1.5 });
  });

  it('maps speech text and voice and bills thousands of characters', async () => {
    server.behaviour.result = (origin) => ({
      audio: { url: `${origin}/files/out.wav`, content_type: 'audio/wav' },
    });
    const input = runInput(
      'speech',
      'fal',
      'fal-ai/minimax/speech-02-hd',
      {
        text: 'Hello there',
        voice: 'Calm_Woman',
        provider_options: { fal: { voice_setting: { speed: 1.2 } } },
      },
      'thousand_characters',
    );
    const result = await provider().run(input, testContext().context);
    expect(sent()).toEqual({
      text: 'Hello there',
      output_format: 'url',
      voice_setting: { voice_id: 'Calm_Woman', speed: 1.2 },
    });
    expect(result.outputs[0]).toMatchObject({ kind: 'file', mediaType: 'audio/wav' });
    expect(result.billedUnits).toEqual({ thousand_characters: 0.011 });
  });

  it('fails with the model error the result endpoint answers', async () => {
    server.behaviour.failure = {
      status: 422,
      detail: [{ loc: ['body', 'prompt'], msg: 'The prompt was flagged', type: 'x' }],
    };
    const input = runInput('image', 'fal', 'fal-ai/flux/schnell', { prompt: 'x' });
    const error = await failureOf(provider().run(input, testContext().context));
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({
      code: 'provider_error',
      message: 'fal failed the job: The prompt was flagged',
    });
  });

  it('reports a refused key as provider_auth', async () => {
    const input = runInput('image', 'fal', 'fal-ai/flux/schnell', { prompt: 'x' });
    const error = await failureOf(provider('wrong-key').run(input, testContext().context));
    expect(error).toMatchObject({ code: 'provider_auth' });
    expect((error as Error).message).toContain('No user found for Key ID and Secret');
    expect((error as Error).message).not.toContain('wrong-key');
  });

  it('waits out a 429 as its Retry-After says, then submits once', async () => {
    Object.assign(server.behaviour, { rateLimitSubmits: 1, retryAfter: '1' });
    const started = Date.now();
    const result = await provider().run(
      runInput('image', 'fal', 'fal-ai/flux/schnell', { prompt: 'x' }),
      testContext().context,
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(paths().filter((p) => p.startsWith('POST'))).toHaveLength(2);
    expect(server.requests.size).toBeGreaterThan(0);
    expect(result.billedUnits).toEqual({ images: 1 });
  });

  it('gives up on a rate limit that does not end with provider_rate_limited', async () => {
    server.behaviour.rateLimitSubmits = 100;
    const error = await failureOf(
      provider().run(runInput('image', 'fal', 'fal-ai/flux/schnell', { prompt: 'x' }), testContext().context),
    );
    expect(error).toMatchObject({ code: 'provider_rate_limited' });
    expect(paths()).toEqual(Array(4).fill('POST /fal-ai/flux/schnell'));
  });

  it('cancels at fal when the job is aborted mid-run', async () => {
    server.behaviour.neverFinish = true;
    const controller = new AbortController();
    const { context } = testContext({}, controller.signal);
    const running = provider().run(
      runInput('video', 'fal', 'fal-ai/veo3', { prompt: 'x' }, 'second'),
      context,
    );
    while (server.received.filter((r) => r.path.endsWith('/status')).length < 2)
      await new Promise((r) => setTimeout(r, 5));
    controller.abort();
    const error = await failureOf(running);
    expect(error).toMatchObject({ name: 'AbortError' });
    const id = [...server.requests.values()].at(-1)?.id;
    expect(paths()).toContain(`PUT /fal-ai/veo3/requests/${id}/cancel`);
  });

  it('follows a submitted request from its id alone (resume) without submitting again', async () => {
    server.requests.set('req-resumed', {
      id: 'req-resumed',
      modelId: 'fal-ai/flux/dev',
      input: { prompt: 'x' },
      polls: 0,
      cancelled: false,
      webhook: null,
      createdAt: Date.now(),
      completedAt: null,
      running: false,
      webhookSent: false,
    });
    const input = {
      ...runInput('image', 'fal', 'fal-ai/flux/dev', { prompt: 'x' }),
      providerJobId: 'req-resumed',
    };
    const { context, submitted } = testContext();
    const result = await provider().run(input, context);
    expect(paths().filter((p) => p.startsWith('POST'))).toEqual([]);
    expect(paths()[0]).toBe('GET /fal-ai/flux/requests/req-resumed/status?logs=1');
    expect(submitted).toEqual([]);
    expect(result.providerJobId).toBe('req-resumed');
  });
});

describe('fal mapping', () => {
  it('keeps owner and app for status URLs (three segments under workflows/ and comfy/)', () => {
    expect(falAppPath('fal-ai/flux/dev')).toBe('fal-ai/flux');
    expect(falAppPath('fal-ai/kling-video/v2.1/master/text-to-video')).toBe('fal-ai/kling-video');
    expect(falAppPath('fal-ai/veo3')).toBe('fal-ai/veo3');
    expect(falAppPath('workflows/me/my-flow/run')).toBe('workflows/me/my-flow');
  });

  it('uses fal size presets when the ratio has one, else about a megapixel in multiples of 16', () => {
    expect(imageSize('1:1')).toBe('square_hd');
    expect(imageSize('9:16')).toBe('portrait_16_9');
    expect(imageSize('32:18')).toBe('landscape_16_9');
    expect(imageSize('21:9')).toEqual({ width: 1568, height: 672 });
  });

  it('estimates the images and seconds a request asks for', () => {
    const adapter = createFalAdapter(config());
    const images = runInput('image', 'fal', 'fal-ai/flux/dev', {
      prompt: 'x',
      provider_options: { fal: { num_images: 3 } },
    });
    const wan = runInput(
      'video',
      'fal',
      'fal-ai/wan/v2.2-a14b/text-to-video',
      { prompt: 'x', duration: 6 },
      'second',
    );
    const luma = runInput(
      'video',
      'fal',
      'fal-ai/luma-dream-machine/ray-2',
      { prompt: 'x', duration: 8 },
      'second',
    );
    expect(adapter.estimateUnits?.(images)).toBe(3);
    expect(adapter.estimateUnits?.(wan)).toBe(96 / 16);
    expect(adapter.estimateUnits?.(luma)).toBe(9);
    expect(adapter.supports('fal-ai/flux/dev')).toBe(true);
    expect(adapter.supports('fal-ai/unknown')).toBe(false);
  });

  it('reads the length of WAV and MP4 headers', () => {
    expect(mediaDurationSeconds(wavOf(2.5))).toBe(2.5);
    expect(mediaDurationSeconds(mp4Of(4.25))).toBe(4.25);
    expect(mediaDurationSeconds(PNG)).toBeNull();
  });
});

describe('fal from its documentation (issue #26)', () => {
  const adapter = () => createFalAdapter(config());
  const submitContext = (webhookUrl: string | null = null, files: InputFile[] = []) => {
    const marks: string[] = [];
    const { context } = testContext();
    return {
      marks,
      context: {
        ...context,
        inputFile: async (url: string) => files.find((f) => f.url === url) ?? Promise.reject(new Error(url)),
        webhookUrl,
        beforeSend: async () => {
          marks.push(`beforeSend after ${server.received.length} requests`);
        },
      },
    };
  };
  async function follow(input: RunInput, context = submitContext().context) {
    const a = adapter();
    const first = await a.submit(input, context);
    let state = first;
    for (let i = 0; i < 20 && !['succeeded', 'failed', 'cancelled'].includes(state.phase); i++) {
      state = await a.poll({ ...input, providerJobId: first.providerJobId });
    }
    return state;
  }

  it.each([
    [5 * 1024 * 1024, 'one PUT'],
    [150 * 1024 * 1024, 'a multipart upload'],
  ])('uploads a %i-byte input to fal storage (%s), streamed, and sends its file_url', async (size) => {
    const file = generatedInput(size);
    const input = runInput(
      'video',
      'fal',
      'fal-ai/topaz/upscale/video',
      { files: [{ url: file.url }] },
      'job',
    );
    const { context, marks } = submitContext(null, [file]);
    const before = process.memoryUsage();
    const state = await adapter().submit(input, context);
    const after = process.memoryUsage();
    const [name, upload] = [...server.uploads.entries()].at(-1)!;
    expect(upload.bytes).toBe(size);
    expect(upload.chunks).toBeGreaterThan(10);
    const created = server.received.find((r) => r.path === '/fal-ai/topaz/upscale/video');
    expect((created?.body as Record<string, unknown> | undefined)?.video_url).toBe(
      `${server.url}/files/${name}`,
    );
    expect(state.phase).toBe('queued');
    // The bytes went through, not into memory: far less growth than the file.
    expect(after.heapUsed + after.arrayBuffers - before.heapUsed - before.arrayBuffers).toBeLessThan(
      size / 3 + 20e6,
    );
    // The create came after the upload, right after beforeSend.
    expect(marks).toEqual([`beforeSend after ${server.received.length - 1} requests`]);
    if (size > 90 * 1024 * 1024) {
      expect(paths().filter((p) => p.startsWith('PUT /multipart/'))).toHaveLength(15);
    }
  });

  it('reports a content-policy refusal as content_policy_violation', async () => {
    server.behaviour.contentPolicy = true;
    const state = await follow(runInput('image', 'fal', 'fal-ai/flux/dev', { prompt: 'x' }));
    expect(state).toMatchObject({ phase: 'failed', errorCode: 'content_policy_violation' });
    expect(state.error).toContain('content checker');
  });

  it('fails a request whose input is outside the model schema (422) and keeps the logs', async () => {
    const input = runInput('image', 'fal', 'fal-ai/flux/dev', {
      prompt: 'x',
      provider_options: { fal: { output_format: 'gif' } },
    });
    const state = await follow(input);
    expect(state).toMatchObject({ phase: 'failed', error: "Input should be 'jpeg', 'png'" });
    expect(state.errorCode).toBeUndefined();
    expect(state.logs).toContain('Loading model');
  });

  it('answers 404 for a model fal does not have', async () => {
    const response = await fetch(`${server.url}/fal-ai/no-such-model`, {
      method: 'POST',
      headers: { authorization: `Key ${KEY}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ detail: "Application 'fal-ai/no-such-model' not found" });
  });

  it('says so when fal no longer keeps a result of 10 KB or more (6 minutes)', async () => {
    server.behaviour.result = () => ({ images: [], padding: 'x'.repeat(11 * 1024) });
    const input = runInput('image', 'fal', 'fal-ai/flux/dev', { prompt: 'x' });
    const a = adapter();
    const { providerJobId } = await a.submit(input, submitContext().context);
    for (let i = 0; i < 3; i++)
      await fetch(`${server.url}/fal-ai/flux/requests/${providerJobId}/status`, {
        headers: { authorization: `Key ${KEY}` },
      });
    server.advance(7 * 60_000);
    try {
      const state = await a.poll({ ...input, providerJobId });
      expect(state.phase).toBe('failed');
    } catch (error) {
      // The status itself is gone too: fal answers 404 for the request.
      expect(error).toMatchObject({ code: 'provider_rejected', options: { status: 404 } });
    } finally {
      server.advance(-7 * 60_000);
    }
  });

  it('passes fal_webhook, accepts a signed delivery and refuses unsigned, tampered, old and replayed ones', async () => {
    const input = runInput('image', 'fal', 'fal-ai/flux/dev', { prompt: 'x' });
    const a = adapter();
    const hook = 'https://console.example/api/webhooks/fal?job=job-1';
    const { providerJobId } = await a.submit(input, submitContext(hook).context);
    expect(server.received.find((r) => r.method === 'POST')?.query.get('fal_webhook')).toBe(hook);
    server.behaviour.pollsBeforeDone = 0;
    await a.poll({ ...input, providerJobId });
    const good = server.webhookFor(providerJobId);

    await expect(a.verifyWebhook!({ headers: new Headers(), body: good.body })).rejects.toBeInstanceOf(
      WebhookRejected,
    );
    const tampered = Buffer.from(good.body.toString().replace('"OK"', '"ERROR"'));
    await expect(a.verifyWebhook!({ headers: good.headers, body: tampered })).rejects.toThrow(
      /does not verify/,
    );
    const old = server.webhookFor(providerJobId, Math.floor(Date.now() / 1000) - 6 * 60);
    await expect(a.verifyWebhook!(old)).rejects.toThrow(/tolerance/);

    await expect(a.verifyWebhook!(good)).resolves.toEqual({ providerJobId });
    await expect(a.verifyWebhook!(good)).rejects.toThrow(/replay/);
    const state = a.stateFromWebhook!({ ...input, providerJobId }, good);
    expect(state).toMatchObject({ phase: 'succeeded', billedUnits: { images: 1 } });
  });
});
