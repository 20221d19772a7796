import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProviderError } from '../../domain/jobs/provider-error.ts';
import { until } from '../../testing/until.ts';
import { createOpenAIAdapter } from './openai-adapter.ts';
import { openAIApi } from './openai-api.ts';
import { closestSize } from './openai-images.ts';
import { soraSeconds } from './openai-videos.ts';
import { createRemoteProvider } from './remote-provider.ts';
import {
  MP4_BYTES,
  type OpenAIProtocolServer,
  PNG_BYTES,
  speechBytes,
  startOpenAIServer,
} from './testing/openai-protocol-server.ts';
import { generatedFile, runInput, testContext } from './testing/openai-run-context.ts';

const FAST = { firstPollMs: 10, maxPollMs: 20 };
const SOURCE = 'https://media.test/files/file_src/content';
const AUDIO = 'https://media.test/files/file_audio/content';
const WAV_SECONDS = 2;

/** A 2-second silent WAV (8 kHz, 16-bit mono). */
function wav(seconds: number): Buffer {
  const data = Buffer.alloc(8000 * 2 * seconds);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVEfmt ', 8, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(8000, 24);
  header.writeUInt32LE(16000, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

const FILES = {
  [SOURCE]: { body: PNG_BYTES, contentType: 'image/png' },
  [AUDIO]: { body: wav(WAV_SECONDS), contentType: 'audio/wav' },
};

let server: OpenAIProtocolServer;

beforeEach(async () => {
  server = await startOpenAIServer();
});
afterEach(async () => {
  await server.close();
});

function provider(key = server.key, options = {}) {
  return createRemoteProvider(createOpenAIAdapter({ OPENAI_API_KEY: key, OPENAI_BASE_URL: server.url }), {
    ...FAST,
    ...options,
  });
}

async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}

describe('mapping helpers', () => {
  it.each([
    ['16:9', '1536x1024'],
    ['9:16', '1024x1536'],
    ['1:1', '1024x1024'],
    ['4:3', '1536x1024'],
    ['6:5', '1024x1024'],
  ])('gpt-image-1 size for %s is %s', (ratio, size) => {
    expect(closestSize(['1024x1024', '1536x1024', '1024x1536'], ratio)).toBe(size);
  });

  it.each([
    [1, 4],
    [6, 8],
    [9, 8],
    [10, 12],
    [30, 12],
  ])('sora seconds for %i is %i', (duration, seconds) => {
    expect(soraSeconds(duration)).toBe(seconds);
  });
});

describe('images', () => {
  it('generates with gpt-image-2: size from aspect_ratio, provider_options merged, images billed', async () => {
    const input = runInput('openai', 'gpt-image-2', 'image', {
      prompt: 'a lighthouse',
      aspect_ratio: '16:9',
      provider_options: { openai: { quality: 'high', n: 2 } },
    });
    expect(provider().estimateUnits?.(input)).toBe(2);
    const result = await provider().run(input, testContext());

    const [request] = server.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/v1/images/generations' });
    expect(request?.headers.authorization).toBe(`Bearer ${server.key}`);
    expect(request?.json).toEqual({
      model: 'gpt-image-2',
      prompt: 'a lighthouse',
      size: '1536x1024',
      quality: 'high',
      n: 2,
    });
    expect(result.outputs).toHaveLength(2);
    expect(result.outputs[0]).toMatchObject({ kind: 'file', mediaType: 'image/png', data: PNG_BYTES });
    expect(result.billedUnits).toEqual({ images: 2 });
    expect(result.providerJobId).toMatch(/^openai-img-/);
  });

  it('asks dall-e-3 for b64_json and refuses n > 1', async () => {
    await provider().run(
      runInput('openai', 'dall-e-3', 'image', { prompt: 'x', aspect_ratio: '9:16' }),
      testContext(),
    );
    expect(server.requests[0]?.json).toMatchObject({ size: '1024x1792', response_format: 'b64_json' });

    const error = await failure(
      provider().run(
        runInput('openai', 'dall-e-3', 'image', { prompt: 'x', provider_options: { openai: { n: 2 } } }),
        testContext(),
      ),
    );
    expect(error.code).toBe('provider_rejected');
    expect(server.requests).toHaveLength(1);
  });

  it('downloads URL answers when provider_options asks dall-e for urls', async () => {
    const result = await provider().run(
      runInput('openai', 'dall-e-2', 'image', {
        prompt: 'x',
        provider_options: { openai: { response_format: 'url' } },
      }),
      testContext(),
    );
    expect(result.outputs[0]).toMatchObject({ kind: 'file', mediaType: 'image/png', data: PNG_BYTES });
    expect(server.requests.map((r) => r.path)).toEqual(['/v1/images/generations', '/v1/files/image-1.png']);
  });

  it('edits with gpt-image-2 as multipart image[] uploads', async () => {
    const result = await provider().run(
      runInput('openai', 'gpt-image-2', 'image', {
        prompt: 'make it night',
        files: [{ url: SOURCE }, { url: SOURCE }],
        aspect_ratio: '1:1',
        provider_options: { openai: { quality: 'low' } },
      }),
      testContext(FILES),
    );
    const form = server.requests[0]?.form;
    expect(server.requests[0]?.path).toBe('/v1/images/edits');
    expect(form?.['image[]']).toHaveLength(2);
    expect(form?.['image[]']?.[0]).toEqual({
      name: 'input.png',
      type: 'image/png',
      bytes: PNG_BYTES,
      size: 11,
    });
    expect(form).toMatchObject({
      model: ['gpt-image-2'],
      prompt: ['make it night'],
      size: ['1024x1024'],
      quality: ['low'],
    });
    expect(result.billedUnits).toEqual({ images: 1 });
  });

  it('edits with dall-e-2 as one `image` upload with a mask, and refuses edits on dall-e-3', async () => {
    await provider().run(
      runInput('openai', 'dall-e-2', 'image', {
        prompt: 'add a moon',
        files: [{ url: SOURCE }],
        provider_options: { openai: { mask: SOURCE } },
      }),
      testContext(FILES),
    );
    const form = server.requests[0]?.form;
    expect(form?.image).toHaveLength(1);
    expect(form?.mask).toHaveLength(1);
    expect(form?.response_format).toEqual(['b64_json']);

    const error = await failure(
      provider().run(
        runInput('openai', 'dall-e-3', 'image', { prompt: 'x', files: [{ url: SOURCE }] }),
        testContext(FILES),
      ),
    );
    expect(error.code).toBe('provider_rejected');
    expect(error.message).toMatch(/dall-e-3 cannot edit/);
  });

  it('answers a refresh of the synchronous job from memory, and resumes it without a second call', async () => {
    const p = provider();
    const input = runInput('openai', 'gpt-image-1', 'image', { prompt: 'x' });
    const first = await p.run(input, testContext());
    const id = first.providerJobId!;
    await expect(
      p.remote!.poll({ ...input, providerJobId: id }, new AbortController().signal),
    ).resolves.toMatchObject({ phase: 'succeeded' });
    const resumed = await p.run({ ...input, providerJobId: id }, testContext());
    expect(resumed.outputs).toEqual(first.outputs);
    expect(server.requests).toHaveLength(1);

    const unknown = await failure(
      p.remote!.poll({ ...input, providerJobId: 'openai-img-gone' }, new AbortController().signal),
    );
    expect(unknown.code).toBe('provider_error');
    expect(unknown.retryable).toBe(false);
  });
});

describe('errors and rate limits', () => {
  it('maps 401 to provider_auth with OpenAI’s message, never echoing the key', async () => {
    const error = await failure(
      provider('sk-wrong').run(runInput('openai', 'gpt-image-1', 'image', { prompt: 'x' }), testContext()),
    );
    expect(error.code).toBe('provider_auth');
    expect(error.message).toMatch(/Incorrect API key provided/);
    expect(error.message).not.toContain('sk-wrong');
  });

  it('retries a 429 after Retry-After', async () => {
    server.rateLimit(1, { 'retry-after': '0.2' });
    const started = Date.now();
    await provider().run(runInput('openai', 'gpt-image-1', 'image', { prompt: 'x' }), testContext());
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    expect(server.requests).toHaveLength(2);
  });

  it('retries a 429 after x-ratelimit-reset-requests when there is no Retry-After', async () => {
    server.rateLimit(1, { 'x-ratelimit-reset-requests': '150ms' });
    const started = Date.now();
    await provider().run(runInput('openai', 'tts-1', 'speech', { text: 'hi' }), testContext());
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect(server.requests).toHaveLength(2);
  });

  it('gives up with provider_rate_limited when the 429s do not stop', async () => {
    server.rateLimit(100, { 'retry-after': '0.01' });
    const error = await failure(
      provider().run(runInput('openai', 'tts-1', 'speech', { text: 'hi' }), testContext()),
    );
    expect(error.code).toBe('provider_rate_limited');
    expect(server.requests).toHaveLength(4);
  });

  it('aborts a synchronous call by closing its request', async () => {
    server.hold = true;
    const controller = new AbortController();
    const run = provider().run(
      runInput('openai', 'tts-1', 'speech', { text: 'hi' }),
      testContext({}, controller.signal),
    );
    await until(() => server.requests.length > 0);
    controller.abort();
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    // The request closing reaches the stand-in a moment after the run rejects.
    await until(() => server.requests[0]?.aborted === true, 5_000);
  });
});

describe('videos', () => {
  it('submits, follows queued → in_progress → completed, downloads the content with auth', async () => {
    const progress: number[] = [];
    const context = { ...testContext(), progress: (fraction: number) => progress.push(fraction) };
    const result = await provider().run(
      runInput('openai', 'sora-2', 'video', {
        prompt: 'waves',
        duration: 10,
        aspect_ratio: '16:9',
        provider_options: { openai: { size: '1792x1024' } },
      }),
      context,
    );
    const [create, ...rest] = server.requests;
    expect(create).toMatchObject({ method: 'POST', path: '/v1/videos' });
    expect(create?.json).toEqual({ model: 'sora-2', prompt: 'waves', seconds: '12', size: '1792x1024' });
    expect(rest.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /v1/videos/video_1',
      'GET /v1/videos/video_1',
      'GET /v1/videos/video_1',
      'GET /v1/videos/video_1/content',
    ]);
    expect(rest.at(-1)?.headers.authorization).toBe(`Bearer ${server.key}`);
    expect(result.outputs[0]).toMatchObject({ kind: 'file', mediaType: 'video/mp4', data: MP4_BYTES });
    expect(result.billedUnits).toEqual({ seconds: 12 });
    expect(result.providerJobId).toBe('video_1');
    expect(progress).toContain(0.5);
  });

  it('uploads a start frame as multipart input_reference', async () => {
    await provider().run(
      runInput('openai', 'sora-2-pro', 'video', {
        prompt: 'waves',
        aspect_ratio: '9:16',
        files: [{ url: SOURCE }],
      }),
      testContext(FILES),
    );
    const form = server.requests[0]?.form;
    expect(form?.input_reference?.[0]).toMatchObject({ name: 'input.png', type: 'image/png' });
    expect(form).toMatchObject({ model: ['sora-2-pro'], prompt: ['waves'], size: ['720x1280'] });
  });

  it('fails with OpenAI’s reason, as a content-policy refusal, when moderation fails the video', async () => {
    server.videos = 'fail';
    const error = await failure(
      provider().run(runInput('openai', 'sora-2', 'video', { prompt: 'x' }), testContext()),
    );
    expect(error.code).toBe('content_policy_violation');
    expect(error.message).toMatch(/blocked by our moderation system/);
  });

  it('deletes the video at OpenAI when aborted mid-poll', async () => {
    server.videos = 'hold';
    const controller = new AbortController();
    const run = provider().run(
      runInput('openai', 'sora-2', 'video', { prompt: 'x' }),
      testContext({}, controller.signal),
    );
    await until(() => server.requests.filter((r) => r.method === 'GET').length >= 3);
    controller.abort();
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    expect(server.requests.at(-1)).toMatchObject({ method: 'DELETE', path: '/v1/videos/video_1' });
  });

  it('resumes a submitted video without submitting again', async () => {
    server.addVideo('video_42', 'completed');
    const result = await provider().run(
      runInput('openai', 'sora-2', 'video', { prompt: 'x' }, 'video_42'),
      testContext(),
    );
    expect(server.requests.some((r) => r.method === 'POST')).toBe(false);
    expect(result.billedUnits).toEqual({ seconds: 8 });
  });
});

describe('speech', () => {
  it('speaks with the voice and options asked for', async () => {
    const result = await provider().run(
      runInput('openai', 'gpt-4o-mini-tts', 'speech', {
        text: 'Hello.',
        voice: 'Marin',
        provider_options: { openai: { instructions: 'cheerful' } },
      }),
      testContext(),
    );
    expect(server.requests[0]).toMatchObject({ method: 'POST', path: '/v1/audio/speech' });
    expect(server.requests[0]?.json).toEqual({
      model: 'gpt-4o-mini-tts',
      input: 'Hello.',
      voice: 'marin',
      response_format: 'mp3',
      instructions: 'cheerful',
    });
    expect(result.outputs[0]).toMatchObject({
      kind: 'file',
      mediaType: 'audio/mpeg',
      data: speechBytes('Hello.'),
    });
    expect(result.billedUnits).toEqual({ thousand_characters: 0.006 });
  });

  it('refuses a voice the model does not have', async () => {
    const error = await failure(
      provider().run(runInput('openai', 'tts-1', 'speech', { text: 'x', voice: 'ballad' }), testContext()),
    );
    expect(error.code).toBe('provider_rejected');
    expect(error.message).toMatch(/no voice "ballad"/);
    expect(server.requests).toHaveLength(0);
  });

  it('splits text over 4096 characters at sentence ends and joins the MP3s', async () => {
    const sentence = 'This sentence is exactly fifty characters long ok. ';
    const text = sentence.repeat(120).trim(); // 6119 characters
    const result = await provider().run(runInput('openai', 'tts-1-hd', 'speech', { text }), testContext());
    const inputs = server.requests.map((r) => String(r.json?.input));
    expect(inputs).toHaveLength(2);
    expect(inputs.every((i) => i.length <= 4096 && i.endsWith('ok.'))).toBe(true);
    expect(inputs.join(' ')).toBe(text);
    const file = result.outputs[0];
    expect(file?.kind === 'file' && file.data).toEqual(Buffer.concat(inputs.map(speechBytes)));
    expect(result.billedUnits.thousand_characters).toBeCloseTo(text.length / 1000);
  });
});

describe('transcription', () => {
  it('asks whisper-1 for verbose_json segments and bills the duration', async () => {
    const result = await provider().run(
      runInput('openai', 'whisper-1', 'transcription', { audio_url: AUDIO, language: 'en-GB' }),
      testContext(FILES),
    );
    const form = server.requests[0]?.form;
    expect(server.requests[0]?.path).toBe('/v1/audio/transcriptions');
    expect(form).toMatchObject({
      model: ['whisper-1'],
      language: ['en'],
      response_format: ['verbose_json'],
      'timestamp_granularities[]': ['segment'],
    });
    expect(form?.file?.[0]).toMatchObject({ name: 'input.wav', type: 'audio/wav' });
    expect(result.outputs[0]).toEqual({
      kind: 'inline',
      mediaType: 'application/json',
      data: {
        text: 'Hello there. General Kenobi.',
        language: 'en-GB',
        duration_seconds: 90,
        segments: [
          { start: 0, end: 1.5, text: 'Hello there.' },
          { start: 1.5, end: 3, text: 'General Kenobi.' },
        ],
      },
    });
    expect(result.billedUnits).toEqual({ minutes: 1.5 });
  });

  it('reads the audio length from the file for gpt-4o transcription (json only)', async () => {
    const result = await provider().run(
      runInput('openai', 'gpt-4o-mini-transcribe', 'transcription', { audio_url: AUDIO }),
      testContext(FILES),
    );
    expect(server.requests[0]?.form?.response_format).toEqual(['json']);
    expect(server.requests[0]?.form?.['timestamp_granularities[]']).toBeUndefined();
    expect(result.outputs[0]).toMatchObject({
      data: {
        text: 'Hello there.',
        language: null,
        duration_seconds: WAV_SECONDS,
        segments: [{ start: 0, end: WAV_SECONDS, text: 'Hello there.' }],
      },
    });
    expect(result.billedUnits.minutes).toBeCloseTo(WAV_SECONDS / 60);
  });
});

describe('unavailableReason', () => {
  it('names the variable without a key, and supports exactly the listed models', () => {
    const adapter = createOpenAIAdapter({ OPENAI_API_KEY: undefined, OPENAI_BASE_URL: server.url });
    expect(createRemoteProvider(adapter).unavailableReason('gpt-image-1')).toMatch(/OPENAI_API_KEY/);
    const ids = ['gpt-image-1', 'dall-e-3', 'dall-e-2', 'sora-2', 'sora-2-pro', 'tts-1', 'tts-1-hd'];
    ids.push('gpt-4o-mini-tts', 'whisper-1', 'gpt-4o-transcribe', 'gpt-4o-mini-transcribe');
    expect(ids.every((id) => adapter.supports(id))).toBe(true);
    expect(adapter.supports('gpt-4o')).toBe(false);
  });
});

describe('documented limits and failures (#26)', () => {
  it('streams an upload into the multipart body: heap stays flat for a 24 MB transcription input', async () => {
    const size = 24 * 1024 * 1024;
    const context = {
      ...testContext(),
      inputFile: async (url: string) => generatedFile(url, size, 'audio/mpeg'),
    };
    global.gc?.();
    const before = process.memoryUsage().heapUsed;
    await provider().run(transcribe('gpt-4o-mini-transcribe'), context);
    const growth = process.memoryUsage().heapUsed - before;
    const file = server.requests[0]?.form?.file?.[0];
    expect(file).toMatchObject({ name: 'input.mp3', type: 'audio/mpeg', size });
    expect(String(server.requests[0]?.headers['content-type'])).toMatch(/^multipart\/form-data; boundary=/);
    // Buffered, the file alone would be 24 MB (twice over as a Blob copy).
    expect(growth).toBeLessThan(size / 2);
  });

  it('refuses audio over OpenAI’s 25 MB before uploading anything', async () => {
    const context = {
      ...testContext(),
      inputFile: async (url: string) => generatedFile(url, 26 * 1024 * 1024, 'audio/mpeg'),
    };
    const error = await failure(provider().run(transcribe('whisper-1'), context));
    expect(error.code).toBe('provider_rejected');
    expect(error.message).toMatch(/at most 26\.2 MB/);
    expect(server.requests).toHaveLength(0);
  });

  it('stops an upload of unknown size at the limit, and answers 413 itself past 25 MB', async () => {
    const context = {
      ...testContext(),
      inputFile: async (url: string) => ({
        ...generatedFile(url, 26 * 1024 * 1024, 'audio/mpeg'),
        size: null,
      }),
    };
    const error = await failure(provider().run(transcribe('whisper-1'), context));
    expect(error.code).toBe('provider_rejected');
    expect(server.accepted).toBe(0);
  });

  it('fails a prompt refused by moderation with content_policy_violation and OpenAI’s message', async () => {
    const error = await failure(
      provider().run(
        runInput('openai', 'gpt-image-1', 'image', { prompt: 'REFUSE-ME please' }),
        testContext(),
      ),
    );
    expect(error.code).toBe('content_policy_violation');
    expect(error.message).toMatch(/rejected by the safety system/);
    expect(server.requests).toHaveLength(1);
  });

  it('does not send a paid call again when the connection drops after OpenAI took it', async () => {
    server.dropAfterAccept = 1;
    const error = await failure(
      provider().run(runInput('openai', 'tts-1', 'speech', { text: 'Hello.' }), testContext()),
    );
    expect(error.code).toBe('provider_submit_unknown');
    expect(error.options.retryable).toBe(false);
    expect(server.accepted).toBe(1);
    expect(server.requests).toHaveLength(1);
  });

  it('reads OpenAI’s answer to a model it does not serve as provider_rejected', async () => {
    const api = openAIApi(server.url, server.key);
    const error = await failure(
      api.json('/images/generations', { method: 'POST', json: { model: 'gpt-image-0', prompt: 'x' } }),
    );
    expect(error.code).toBe('provider_rejected');
    expect(error.options.status).toBe(404);
    expect(error.message).toMatch(/model `gpt-image-0` does not exist/);
  });

  it('passes on OpenAI’s refusal of a value outside the documented enum', async () => {
    const error = await failure(
      provider().run(
        runInput('openai', 'gpt-image-1', 'image', {
          prompt: 'x',
          provider_options: { openai: { quality: 'ultra' } },
        }),
        testContext(),
      ),
    );
    expect(error.code).toBe('provider_rejected');
    expect(error.message).toMatch(
      /Invalid value: 'ultra'. Supported values are: 'low', 'medium', 'high', 'auto'/,
    );
    expect(server.accepted).toBe(0);
  });
});

const transcribe = (model: string) =>
  runInput('openai', model, 'transcription', { audio_url: 'https://media.test/files/file_big/content' });
