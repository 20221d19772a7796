import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { InputFile } from '../../domain/jobs/provider.ts';
import { ProviderError } from '../../domain/jobs/provider-error.ts';
import { createRemoteProvider, WebhookRejected } from './remote-provider.ts';
import { createReplicateAdapter } from './replicate-adapter.ts';
import { runInput, testContext } from './testing/fal-replicate-test-context.ts';
import { mp4Of, PNG, wavOf } from './testing/fal-replicate-test-media.ts';
import { generatedInput } from './testing/generated-input.ts';
import {
  type ReplicateProtocolServer,
  startReplicateProtocolServer,
} from './testing/replicate-protocol-server.ts';

const TOKEN = 'r8_test_token';
const ESRGAN = 'nightmareai/real-esrgan:f121d640bd286e1fdc67f9799164c1d5be36ff74576ee11c803ae5b665dd46aa';
const MUSICGEN = 'meta/musicgen:671ac645ce5e552cc63a54a2bbff63fcf798043055d2dac5fc9e36a837eedcfb';
const WHISPER = 'openai/whisper:8099696689d249cf8b122d833c36ac3f75505c666a395ca40ef26f68e7d3d16e';
let server: ReplicateProtocolServer;

beforeAll(async () => {
  server = await startReplicateProtocolServer(TOKEN);
  server.files.set('out.png', { body: PNG, contentType: 'image/png' });
  server.files.set('out.mp4', { body: mp4Of(5), contentType: 'video/mp4' });
  server.files.set('out.wav', { body: wavOf(1), contentType: 'audio/wav' });
});
afterAll(() => server.close());
afterEach(() => {
  server.received.length = 0;
  Object.assign(server.behaviour, {
    pollsBeforeDone: 2,
    neverFinish: false,
    rateLimitCreates: 0,
    retryAfter: '0',
    failure: null,
    dropAfterAccept: 0,
    failDownloads: 0,
    output: (origin: string) => [`${origin}/files/out.png`],
  });
});

const provider = (token = TOKEN) =>
  createRemoteProvider(
    createReplicateAdapter({ REPLICATE_API_TOKEN: token, REPLICATE_API_URL: server.apiUrl }),
    {
      firstPollMs: 10,
      maxPollMs: 20,
    },
  );
const paths = () => server.received.map((r) => `${r.method} ${r.path}`);
const created = () => server.received.find((r) => r.method === 'POST')?.body as Record<string, unknown>;
const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => Promise.reject(new Error('resolved')),
    (e) => e,
  );
const image = { 'http://us/files/src.png': { body: PNG, contentType: 'image/png' } };
const pngUri = `data:image/png;base64,${PNG.toString('base64')}`;

describe('Replicate predictions protocol', () => {
  it('creates an official model prediction, polls it and downloads every output', async () => {
    server.behaviour.output = (origin) => [`${origin}/files/out.png`, `${origin}/files/out.png`];
    const { context, progress, submitted } = testContext();
    const input = runInput('image', 'replicate', 'black-forest-labs/flux-schnell', {
      prompt: 'a lighthouse',
      aspect_ratio: '16:9',
      provider_options: { replicate: { num_outputs: 2, output_format: 'png' } },
    });
    const result = await provider().run(input, context);
    const id = result.providerJobId;

    expect(paths()).toEqual([
      'POST /v1/models/black-forest-labs/flux-schnell/predictions',
      `GET /v1/predictions/${id}`,
      `GET /v1/predictions/${id}`,
      `GET /v1/predictions/${id}`,
      'GET /files/out.png',
      'GET /files/out.png',
    ]);
    expect(server.received.slice(0, 4).map((r) => r.headers.authorization)).toEqual(
      Array(4).fill(`Bearer ${TOKEN}`),
    );
    expect(server.received[0]?.headers.prefer).toBeUndefined();
    expect(created()).toEqual({
      input: { prompt: 'a lighthouse', aspect_ratio: '16:9', num_outputs: 2, output_format: 'png' },
    });
    expect(submitted).toEqual([[id, 'starting']]);
    expect(result.outputs).toEqual([
      { kind: 'file', data: PNG, mediaType: 'image/png', name: 'out.png' },
      { kind: 'file', data: PNG, mediaType: 'image/png', name: 'out.png' },
    ]);
    expect(result.billedUnits).toEqual({ images: 2 });
    expect(result.providerStatus).toBe('succeeded');
    expect(progress).toContainEqual([0.1 + 0.8 * 0.45, 'Running at Replicate (45%)']);
  });

  it('creates a community model prediction by version with the image as a data: URI', async () => {
    const input = runInput('image', 'replicate', ESRGAN, {
      files: [{ url: 'http://us/files/src.png' }],
      provider_options: { replicate: { scale: 2 } },
    });
    const result = await provider().run(input, testContext(image).context);
    expect(paths()[0]).toBe('POST /v1/predictions');
    expect(created()).toEqual({ version: ESRGAN.split(':')[1], input: { image: pngUri, scale: 2 } });
    expect(result.billedUnits).toEqual({ images: 1 });
  });

  it('sends the start frame of an image-to-video model and bills the duration that ran', async () => {
    server.behaviour.output = (origin) => `${origin}/files/out.mp4`;
    const input = runInput(
      'video',
      'replicate',
      'kwaivgi/kling-v2.1',
      { prompt: 'she turns', duration: 7, files: [{ url: 'http://us/files/src.png' }] },
      'second',
    );
    const result = await provider().run(input, testContext(image).context);
    expect(created()).toEqual({ input: { prompt: 'she turns', duration: 5, start_image: pngUri } });
    expect(result.outputs).toEqual([
      { kind: 'file', data: mp4Of(5), mediaType: 'video/mp4', name: 'out.mp4' },
    ]);
    expect(result.billedUnits).toEqual({ seconds: 5 });
  });

  it('lets provider_options override a derived field, and bills what was overridden', async () => {
    server.behaviour.output = (origin) => `${origin}/files/out.wav`;
    const input = runInput(
      'music',
      'replicate',
      MUSICGEN,
      {
        prompt: 'lofi',
        duration: 12.4,
        provider_options: { replicate: { duration: 20, output_format: 'wav' } },
      },
      'second',
    );
    const result = await provider().run(input, testContext().context);
    expect(created()).toEqual({
      version: MUSICGEN.split(':')[1],
      input: { prompt: 'lofi', duration: 20, output_format: 'wav' },
    });
    expect(result.billedUnits).toEqual({ seconds: 20 });
  });

  it('returns a whisper transcript inline and bills minutes to the last segment', async () => {
    server.behaviour.output = () => ({
      segments: [
        { id: 0, start: 0, end: 1.2, text: ' Hi' },
        { id: 1, start: 1.2, end: 30, text: ' there' },
      ],
      transcription: ' Hi there',
      detected_language: 'english',
    });
    const files = { 'http://us/files/talk.wav': { body: wavOf(0.25), contentType: 'audio/wav' } };
    const input = runInput(
      'transcription',
      'replicate',
      WHISPER,
      { audio_url: 'http://us/files/talk.wav' },
      'minute',
    );
    const result = await provider().run(input, testContext(files).context);
    expect(created()).toEqual({
      version: WHISPER.split(':')[1],
      input: { audio: `data:audio/wav;base64,${wavOf(0.25).toString('base64')}` },
    });
    expect(result.outputs).toEqual([
      {
        kind: 'inline',
        mediaType: 'application/json',
        data: {
          text: 'Hi there',
          language: 'english',
          duration_seconds: 30,
          segments: [
            { start: 0, end: 1.2, text: 'Hi' },
            { start: 1.2, end: 30, text: 'there' },
          ],
        },
      },
    ]);
    expect(result.billedUnits).toEqual({ minutes: 0.5 });
  });

  it('fails with the prediction error', async () => {
    server.behaviour.failure = 'CUDA out of memory';
    const error = await failureOf(
      provider().run(
        runInput('image', 'replicate', 'google/imagen-4', { prompt: 'x' }),
        testContext().context,
      ),
    );
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({
      code: 'provider_error',
      message: 'replicate failed the job: CUDA out of memory',
    });
  });

  it('reports a refused token as provider_auth without repeating it', async () => {
    const error = await failureOf(
      provider('r8_wrong').run(
        runInput('image', 'replicate', 'google/imagen-4', { prompt: 'x' }),
        testContext().context,
      ),
    );
    expect(error).toMatchObject({ code: 'provider_auth' });
    expect((error as Error).message).toContain('You did not pass a valid authentication token');
    expect((error as Error).message).not.toContain('r8_wrong');
  });

  it('waits out a 429 as its Retry-After says, then creates once', async () => {
    Object.assign(server.behaviour, { rateLimitCreates: 1, retryAfter: '1' });
    const started = Date.now();
    await provider().run(
      runInput('image', 'replicate', 'google/imagen-4', { prompt: 'x' }),
      testContext().context,
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(paths().filter((p) => p.startsWith('POST'))).toHaveLength(2);
  });

  it('gives up on a rate limit that does not end with provider_rate_limited', async () => {
    server.behaviour.rateLimitCreates = 100;
    const error = await failureOf(
      provider().run(
        runInput('image', 'replicate', 'google/imagen-4', { prompt: 'x' }),
        testContext().context,
      ),
    );
    expect(error).toMatchObject({ code: 'provider_rate_limited' });
    expect((error as Error).message).toContain('Request was throttled');
    expect(paths()).toEqual(Array(4).fill('POST /v1/models/google/imagen-4/predictions'));
  });

  it('cancels the prediction when the job is aborted mid-run', async () => {
    server.behaviour.neverFinish = true;
    const controller = new AbortController();
    const running = provider().run(
      runInput('video', 'replicate', 'google/veo-3', { prompt: 'x' }, 'second'),
      testContext({}, controller.signal).context,
    );
    while (server.received.filter((r) => r.method === 'GET').length < 2)
      await new Promise((r) => setTimeout(r, 5));
    controller.abort();
    const error = await failureOf(running);
    expect(error).toMatchObject({ name: 'AbortError' });
    const id = [...server.predictions.keys()].at(-1);
    expect(paths()).toContain(`POST /v1/predictions/${id}/cancel`);
    expect(server.predictions.get(id ?? '')?.status).toBe('canceled');
  });

  it('follows a created prediction from its id alone (resume) without creating another', async () => {
    server.predictions.set('pred-resumed', {
      id: 'pred-resumed',
      model: 'google/imagen-4',
      version: null,
      input: { prompt: 'x' },
      polls: 0,
      status: 'starting',
    });
    const input = {
      ...runInput('image', 'replicate', 'google/imagen-4', { prompt: 'x' }),
      providerJobId: 'pred-resumed',
    };
    const { context, submitted } = testContext();
    const result = await provider().run(input, context);
    expect(paths().filter((p) => p.startsWith('POST'))).toEqual([]);
    expect(paths()[0]).toBe('GET /v1/predictions/pred-resumed');
    expect(submitted).toEqual([]);
    expect(result.billedUnits).toEqual({ images: 1 });
  });

  it('refuses an image-to-video model without a start frame, before creating anything', async () => {
    const input = runInput('video', 'replicate', 'kwaivgi/kling-v2.1', { prompt: 'x' }, 'second');
    const error = await failureOf(provider().run(input, testContext().context));
    expect(error).toMatchObject({
      code: 'provider_rejected',
      message: 'kwaivgi/kling-v2.1 needs an image in files.',
    });
    expect(server.received).toEqual([]);
  });
});

describe('Replicate mapping', () => {
  const adapter = () =>
    createReplicateAdapter({ REPLICATE_API_TOKEN: TOKEN, REPLICATE_API_URL: server.apiUrl });

  it('estimates the units a request asks for after rounding to the model values', () => {
    const seedance = runInput(
      'video',
      'replicate',
      'bytedance/seedance-1-pro',
      { prompt: 'x', duration: 20 },
      'second',
    );
    const wan = runInput(
      'video',
      'replicate',
      'wan-video/wan-2.2-t2v-fast',
      { prompt: 'x', duration: 6 },
      'second',
    );
    const veo = runInput('video', 'replicate', 'google/veo-3', { prompt: 'x', duration: 3 }, 'second');
    const flux = runInput('image', 'replicate', 'black-forest-labs/flux-schnell', {
      prompt: 'x',
      provider_options: { replicate: { num_outputs: 4 } },
    });
    const speech = runInput(
      'speech',
      'replicate',
      'minimax/speech-02-hd',
      { text: 'a'.repeat(1500) },
      'thousand_characters',
    );
    expect(adapter().estimateUnits?.(seedance)).toBe(12);
    expect(adapter().estimateUnits?.(wan)).toBe(96 / 16);
    expect(adapter().estimateUnits?.(veo)).toBe(8);
    expect(adapter().estimateUnits?.(flux)).toBe(4);
    expect(adapter().estimateUnits?.(speech)).toBe(1.5);
  });

  it('supports exactly the mapped ids, community ones with their version', () => {
    expect(adapter().supports('minimax/video-01')).toBe(true);
    expect(adapter().supports(ESRGAN)).toBe(true);
    expect(adapter().supports('nightmareai/real-esrgan')).toBe(false);
  });
});

describe('Replicate from its documentation (issue #26)', () => {
  const adapter = () =>
    createReplicateAdapter({ REPLICATE_API_TOKEN: TOKEN, REPLICATE_API_URL: server.apiUrl });
  const submitContext = (webhookUrl: string | null = null, files: InputFile[] = []) => {
    const { context } = testContext();
    return {
      ...context,
      inputFile: async (url: string) => files.find((f) => f.url === url) ?? Promise.reject(new Error(url)),
      webhookUrl,
      beforeSend: async () => {},
    };
  };
  const video = (file: InputFile) =>
    runInput(
      'video',
      'replicate',
      'kwaivgi/kling-v2.1',
      { prompt: 'go', files: [{ url: file.url }] },
      'second',
    );

  it('uploads a 5 MB input to the Files API, streamed, and sends its urls.get', async () => {
    const file = { ...generatedInput(5 * 1024 * 1024, 'image/png', 'start.png'), kind: 'image' as const };
    const before = process.memoryUsage();
    await adapter().submit(video(file), submitContext(null, [file]));
    const after = process.memoryUsage();
    const [id, upload] = [...server.uploads.entries()].at(-1)!;
    expect(upload.bytes).toBeGreaterThan(5 * 1024 * 1024);
    expect(upload.chunks).toBeGreaterThan(10);
    expect(upload.contentType).toMatch(/^multipart\/form-data; boundary=/);
    const create = server.received.find((r) => r.path.endsWith('/predictions'));
    expect((create?.body as { input: Record<string, unknown> } | undefined)?.input.start_image).toBe(
      `${server.apiUrl}/files/${id}`,
    );
    expect(after.heapUsed + after.arrayBuffers - before.heapUsed - before.arrayBuffers).toBeLessThan(20e6);
  });

  it('refuses a 150 MB input before uploading: the Files API takes up to 100 MB', async () => {
    const file = { ...generatedInput(150 * 1024 * 1024, 'image/png', 'huge.png'), kind: 'image' as const };
    const error = await failureOf(adapter().submit(video(file), submitContext(null, [file])));
    expect(error).toMatchObject({ code: 'provider_rejected', options: { accepted: 'no' } });
    expect(server.received.filter((r) => r.method === 'POST')).toEqual([]);
  });

  it('reports a moderated prediction as content_policy_violation', async () => {
    server.behaviour.failure = 'NSFW content detected. Try running it again, or try a different prompt.';
    const input = runInput('image', 'replicate', 'black-forest-labs/flux-schnell', { prompt: 'x' });
    const a = adapter();
    const { providerJobId } = await a.submit(input, submitContext());
    let state = await a.poll({ ...input, providerJobId });
    while (state.phase !== 'failed') state = await a.poll({ ...input, providerJobId });
    expect(state).toMatchObject({ errorCode: 'content_policy_violation', logs: 'Traceback ...' });
  });

  it('answers 404 for an unknown model and 422 for a value outside an enum', async () => {
    const unknown = runInput('image', 'replicate', 'black-forest-labs/flux-schnell', { prompt: 'x' });
    const response = await fetch(`${server.apiUrl}/models/nobody/nothing/predictions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ input: {} }),
    });
    expect(response.status).toBe(404);
    const bad = {
      ...unknown,
      body: { prompt: 'x', provider_options: { replicate: { output_format: 'gif' } } },
    };
    const error = await failureOf(adapter().submit(bad, submitContext()));
    expect(error).toMatchObject({ code: 'provider_rejected', options: { status: 422, accepted: 'no' } });
  });

  it("submits Kling 2.1's documented options and is refused a field its page does not list", async () => {
    const file = { ...generatedInput(1024, 'image/png', 'start.png'), kind: 'image' as const };
    const withOptions = (replicate: Record<string, unknown>) => {
      const input = video(file);
      return { ...input, body: { ...input.body, provider_options: { replicate } } };
    };
    await adapter().submit(withOptions({ negative_prompt: 'blur' }), submitContext(null, [file]));
    expect(created()).toMatchObject({ input: { negative_prompt: 'blur', prompt: 'go' } });
    const error = await failureOf(adapter().submit(withOptions({ seed: 7 }), submitContext(null, [file])));
    expect(error).toMatchObject({ code: 'provider_rejected', options: { status: 422, accepted: 'no' } });
    expect(String((error as Error).message)).toMatch(/seed/);
  });

  it('sends a 7 s Wan 2.2 fast request as 100 frames, the most its page accepts', async () => {
    const input = runInput(
      'video',
      'replicate',
      'wan-video/wan-2.2-t2v-fast',
      { prompt: 'x', duration: 7 },
      'second',
    );
    await adapter().submit(input, submitContext());
    expect(created()).toMatchObject({ input: { num_frames: 100 } });
  });

  it('answers the still-running jobs from the prediction list and leaves the others to their own GET', async () => {
    server.behaviour.pollsBeforeDone = 10;
    const a = adapter();
    const input = runInput('image', 'replicate', 'black-forest-labs/flux-schnell', { prompt: 'x' });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await a.submit(input, submitContext())).providerJobId);
    server.predictions.get(ids[2]!)!.status = 'canceled';
    server.received.length = 0;
    const jobs = [...ids, 'not-listed'].map((providerJobId) => ({
      input: { ...input, providerJobId },
      submittedAt: new Date(Date.now() - 1000),
    }));
    const states = await a.pollMany!(jobs);
    expect([...states.keys()].sort()).toEqual([ids[0], ids[1]].sort());
    expect(states.get(ids[0]!)).toMatchObject({ phase: 'queued', providerStatus: 'starting' });
    expect(paths()).toEqual(['GET /v1/predictions']);
  });

  it('passes the webhook, accepts a signed delivery and refuses unsigned, tampered and old ones', async () => {
    const input = runInput('image', 'replicate', 'black-forest-labs/flux-schnell', { prompt: 'x' });
    const a = adapter();
    const hook = 'https://console.example/api/webhooks/replicate?job=job-7';
    const { providerJobId } = await a.submit(input, submitContext(hook));
    expect(created()).toMatchObject({ webhook: hook, webhook_events_filter: ['completed'] });
    server.predictions.get(providerJobId)!.status = 'succeeded';
    const good = server.webhookFor(providerJobId);
    await expect(a.verifyWebhook!({ headers: new Headers(), body: good.body })).rejects.toBeInstanceOf(
      WebhookRejected,
    );
    const tampered = Buffer.from(good.body.toString().replace('succeeded', 'failed'));
    await expect(a.verifyWebhook!({ headers: good.headers, body: tampered })).rejects.toThrow(
      /does not verify/,
    );
    await expect(
      a.verifyWebhook!(server.webhookFor(providerJobId, Math.floor(Date.now() / 1000) - 600)),
    ).rejects.toThrow(/tolerance/);
    await expect(a.verifyWebhook!(good)).resolves.toEqual({ providerJobId });
    expect(a.stateFromWebhook!({ ...input, providerJobId }, good)).toMatchObject({ phase: 'succeeded' });
  });

  it('finds a prediction whose create lost its answer, by the job id in its webhook, and only once', async () => {
    server.behaviour.dropAfterAccept = 1;
    const input = runInput('image', 'replicate', 'black-forest-labs/flux-schnell', { prompt: 'lost' });
    const sentAt = new Date();
    const hook = 'https://console.example/api/webhooks/replicate?job=job-lost';
    const error = await failureOf(adapter().submit(input, submitContext(hook)));
    expect(error).toMatchObject({ options: { accepted: 'unknown' } });
    const found = await adapter().findSubmitted!({ ...input, jobId: 'job-lost', sentAt });
    expect(found?.providerJobId).toBe([...server.predictions.keys()].at(-1));
    expect(
      await adapter().findSubmitted!({
        ...input,
        jobId: 'job-other',
        sentAt: new Date(Date.now() + 600_000),
      }),
    ).toBeNull();
  });
});
