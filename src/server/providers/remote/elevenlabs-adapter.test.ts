import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProviderError } from '../../domain/jobs/provider-error.ts';
import {
  ELEVENLABS_DEFAULT_VOICE_ID,
  ELEVENLABS_PREMADE_VOICES,
} from '../../domain/presets/elevenlabs-voices.ts';
import { until } from '../../testing/until.ts';
import { createElevenLabsAdapter } from './elevenlabs-adapter.ts';
import { elevenLabsApi } from './elevenlabs-api.ts';
import { elevenLabsVoiceId } from './elevenlabs-speech.ts';
import { segmentsOf } from './elevenlabs-transcription.ts';
import { createRemoteProvider } from './remote-provider.ts';
import {
  type ElevenLabsProtocolServer,
  MUSIC_BYTES,
  SCRIBE_WORDS,
  startElevenLabsServer,
  ttsBytes,
} from './testing/elevenlabs-protocol-server.ts';
import { generatedFile, runInput, testContext } from './testing/openai-run-context.ts';

const FAST = { firstPollMs: 10, maxPollMs: 20 };
const AUDIO = 'https://media.test/files/file_audio/content';
const FILES = { [AUDIO]: { body: Buffer.from('not a parseable container'), contentType: 'audio/mp4' } };

let server: ElevenLabsProtocolServer;

beforeEach(async () => {
  server = await startElevenLabsServer();
});
afterEach(async () => {
  await server.close();
});

function provider(key = server.key, options = {}) {
  const adapter = createElevenLabsAdapter({ ELEVENLABS_API_KEY: key, ELEVENLABS_API_URL: server.url });
  return createRemoteProvider(adapter, { ...FAST, ...options });
}

async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}

const speech = (body: Record<string, unknown>, model = 'eleven_multilingual_v2') =>
  runInput('elevenlabs', model, 'speech', body);

describe('voices', () => {
  it('resolves default voice names in any case, aliases and ids, and refuses unknown names', () => {
    expect(elevenLabsVoiceId(undefined)).toBe(ELEVENLABS_DEFAULT_VOICE_ID);
    expect(elevenLabsVoiceId('rachel')).toBe('21m00Tcm4TlvDq8ikWAM');
    expect(elevenLabsVoiceId('Bella')).toBe('EXAVITQu4vr4xnSDxMaL');
    expect(elevenLabsVoiceId('abcdefghij0123456789')).toBe('abcdefghij0123456789');
    expect(() => elevenLabsVoiceId('Nobody')).toThrow(/no default voice "Nobody"/);
  });

  it('lists each voice id once, with a unique name', () => {
    const ids = ELEVENLABS_PREMADE_VOICES.map((v) => v.id);
    const names = ELEVENLABS_PREMADE_VOICES.flatMap((v) => [v.name, ...(v.aliases ?? [])]);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(names).size).toBe(names.length);
    expect(ids.every((id) => /^[A-Za-z0-9]{20}$/.test(id))).toBe(true);
  });
});

describe('speech', () => {
  it('posts text, model and voice settings to the voice, and bills the characters ElevenLabs counts', async () => {
    const result = await provider().run(
      speech({
        text: 'Hello there.',
        voice: 'Adam',
        provider_options: { elevenlabs: { stability: 0.3, similarity_boost: 0.8, seed: 7 } },
      }),
      testContext(),
    );
    const [request] = server.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/v1/text-to-speech/pNInz6obpgDQGcFmaJgB' });
    expect(request?.query.get('output_format')).toBe('mp3_44100_128');
    expect(request?.headers['xi-api-key']).toBe(server.key);
    expect(request?.json).toEqual({
      text: 'Hello there.',
      model_id: 'eleven_multilingual_v2',
      voice_settings: { stability: 0.3, similarity_boost: 0.8 },
      seed: 7,
    });
    expect(result.outputs[0]).toMatchObject({
      kind: 'file',
      mediaType: 'audio/mpeg',
      data: ttsBytes('Hello there.'),
    });
    expect(result.billedUnits).toEqual({ thousand_characters: 0.012 });
    expect(result.providerJobId).toBe('req_1');
  });

  it('splits text over eleven_v3’s limit at sentence ends and joins the MP3s', async () => {
    const text = 'A short sentence that repeats itself. '.repeat(300).trim(); // 11399 characters
    const result = await provider().run(speech({ text }, 'eleven_v3'), testContext());
    const texts = server.requests.map((r) => String(r.json?.text));
    expect(texts.length).toBe(3);
    expect(texts.every((t) => t.length <= 5000 && t.endsWith('itself.'))).toBe(true);
    expect(texts.join(' ')).toBe(text);
    // eleven_v3 takes no request stitching
    expect(server.requests.some((r) => r.json?.previous_request_ids)).toBe(false);
    const file = result.outputs[0];
    expect(file?.kind === 'file' && file.data).toEqual(Buffer.concat(texts.map(ttsBytes)));
    expect(result.billedUnits.thousand_characters).toBeCloseTo(texts.join('').length / 1000);
  });

  it('stitches pieces with previous_request_ids and does not pay twice for a piece when retried', async () => {
    const text = 'Ten words of text that make a sentence right here. '.repeat(240).trim(); // 12239 characters
    server.rateLimit(1, { 'retry-after': '0.01' }, 1); // the second piece is rate limited once
    const result = await provider().run(speech({ text }), testContext());
    const texts = server.requests.map((r) => String(r.json?.text));
    expect(texts).toHaveLength(3);
    expect(texts[1]).toBe(texts[2]);
    expect(server.requests[2]?.json?.previous_request_ids).toEqual(['req_1']);
    const file = result.outputs[0];
    expect(file?.kind === 'file' && file.data).toEqual(
      Buffer.concat([ttsBytes(texts[0]!), ttsBytes(texts[2]!)]),
    );
    expect(result.providerJobId).toBe('req_1');
  });

  it('refuses a format it cannot join when the text must be split', async () => {
    const text = 'Again and again. '.repeat(300);
    const error = await failure(
      provider().run(
        speech({ text, provider_options: { elevenlabs: { output_format: 'pcm_24000' } } }, 'eleven_v3'),
        testContext(),
      ),
    );
    expect(error.code).toBe('provider_rejected');
    expect(server.requests).toHaveLength(0);
  });

  it('passes ElevenLabs’ refusal on as provider_rejected with its message', async () => {
    // A voice id is sent as is; the account has no such voice.
    const error = await failure(
      provider().run(speech({ text: 'x', voice: 'ZZZZZZZZZZZZZZZZZZZZ' }), testContext()),
    );
    expect(error.code).toBe('provider_rejected');
    expect(error.message).toMatch(/voice_id ZZZZZZZZZZZZZZZZZZZZ was not found/);
  });
});

describe('music', () => {
  it('composes with the length in ms (clamped to ElevenLabs’ 3-300 s) and bills the seconds', async () => {
    const p = provider();
    const input = runInput('elevenlabs', 'music_v1', 'music', {
      prompt: 'calm piano',
      duration: 400,
      provider_options: { elevenlabs: { force_instrumental: true } },
    });
    expect(p.estimateUnits?.(input)).toBe(300);
    const result = await p.run(input, testContext());
    expect(server.requests[0]).toMatchObject({ method: 'POST', path: '/v1/music' });
    expect(server.requests[0]?.query.get('output_format')).toBe('mp3_44100_128');
    expect(server.requests[0]?.json).toEqual({
      prompt: 'calm piano',
      music_length_ms: 300_000,
      model_id: 'music_v1',
      force_instrumental: true,
    });
    expect(result.outputs[0]).toMatchObject({ kind: 'file', mediaType: 'audio/mpeg', data: MUSIC_BYTES });
    expect(result.billedUnits).toEqual({ seconds: 300 });
  });
});

describe('transcription', () => {
  it('uploads the audio with model and language, and builds segments from the words', async () => {
    const result = await provider().run(
      runInput('elevenlabs', 'scribe_v1', 'transcription', { audio_url: AUDIO, language: 'pt-BR' }),
      testContext(FILES),
    );
    const form = server.requests[0]?.form;
    expect(server.requests[0]).toMatchObject({ method: 'POST', path: '/v1/speech-to-text' });
    expect(form).toMatchObject({ model_id: ['scribe_v1'], language_code: ['pt'] });
    expect(form?.file?.[0]).toMatchObject({ name: 'input.m4a', type: 'audio/mp4' });
    expect(result.outputs[0]).toEqual({
      kind: 'inline',
      mediaType: 'application/json',
      data: {
        text: 'Hello there. How are you',
        language: 'pt-BR',
        duration_seconds: 3.1,
        segments: [
          { start: 0, end: 0.9, text: 'Hello there.' },
          { start: 1, end: 1.5, text: 'How are' },
          { start: 2.6, end: 3.1, text: 'you' },
        ],
      },
    });
    expect(result.billedUnits.minutes).toBeCloseTo(3.1 / 60);
  });

  it('keeps audio events in the text of their segment', () => {
    const words = [
      ...SCRIBE_WORDS.slice(0, 3),
      { text: ' ', type: 'spacing' },
      { text: '(laughs)', start: 1, end: 1.2, type: 'audio_event' },
    ];
    expect(segmentsOf(words)).toEqual([
      { start: 0, end: 0.9, text: 'Hello there.' },
      { start: 1, end: 1.2, text: '(laughs)' },
    ]);
  });
});

describe('errors, rate limits, abort, resume', () => {
  it('maps 401 to provider_auth with ElevenLabs’ message', async () => {
    const error = await failure(provider('wrong-key').run(speech({ text: 'x' }), testContext()));
    expect(error.code).toBe('provider_auth');
    expect(error.message).toMatch(/Invalid API key/);
    expect(error.message).not.toContain('wrong-key');
  });

  it('fails a paid call on a 5xx with provider_submit_unknown and ElevenLabs’ message, without sending it again', async () => {
    server.failNext = true;
    const error = await failure(provider().run(speech({ text: 'x' }), testContext()));
    expect(error.code).toBe('provider_submit_unknown');
    expect(error.message).toMatch(/internal error occurred while generating audio/);
    expect(server.requests).toHaveLength(1);
  });

  it('retries too_many_concurrent_requests after Retry-After', async () => {
    server.rateLimit(1, { 'retry-after': '0.2' });
    const started = Date.now();
    await provider().run(speech({ text: 'x' }), testContext());
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    expect(server.requests).toHaveLength(2);
  });

  it('gives up with provider_rate_limited when the 429s do not stop', async () => {
    server.rateLimit(100, { 'retry-after': '0.01' });
    const error = await failure(provider().run(speech({ text: 'x' }), testContext()));
    expect(error.code).toBe('provider_rate_limited');
    expect(error.message).toMatch(/too many concurrent requests/);
    expect(server.requests).toHaveLength(4);
  });

  it('cancels by aborting the request', async () => {
    server.hold = true;
    const controller = new AbortController();
    const run = provider().run(speech({ text: 'x' }), testContext({}, controller.signal));
    await until(() => server.requests.length > 0);
    controller.abort();
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    // The request closing reaches the stand-in a moment after the run rejects.
    await until(() => server.requests[0]?.aborted === true, 5_000);
  });

  it('resumes a finished request from memory without a second call, and says when it is gone', async () => {
    const p = provider();
    const first = await p.run(speech({ text: 'x' }), testContext());
    const resumed = await p.run(
      { ...speech({ text: 'x' }), providerJobId: first.providerJobId },
      testContext(),
    );
    expect(resumed.outputs).toEqual(first.outputs);
    expect(server.requests).toHaveLength(1);
    const gone = await failure(
      p.run({ ...speech({ text: 'x' }), providerJobId: 'req_unknown' }, testContext()),
    );
    expect(gone.message).toMatch(/no longer holds its result/);
    expect(server.requests).toHaveLength(1);
  });
});

describe('supports', () => {
  it('supports exactly the listed models', () => {
    const adapter = createElevenLabsAdapter({ ELEVENLABS_API_KEY: 'k', ELEVENLABS_API_URL: server.url });
    const ids = [
      'eleven_multilingual_v2',
      'eleven_turbo_v2_5',
      'eleven_flash_v2_5',
      'eleven_v3',
      'music_v1',
      'scribe_v1',
    ];
    expect(ids.every((id) => adapter.supports(id))).toBe(true);
    expect(adapter.supports('eleven_monolingual_v1')).toBe(false);
  });
});

describe('documented limits and failures (#26)', () => {
  const BIG = 'https://media.test/files/file_big/content';
  const scribe = () => runInput('elevenlabs', 'scribe_v1', 'transcription', { audio_url: BIG });

  it('streams a 150 MB upload to speech-to-text with the heap far below its size', async () => {
    const size = 150 * 1024 * 1024;
    const context = {
      ...testContext(),
      inputFile: async (url: string) => generatedFile(url, size, 'audio/mpeg'),
    };
    const before = process.memoryUsage().heapUsed;
    await provider().run(scribe(), context);
    const growth = process.memoryUsage().heapUsed - before;
    expect(server.requests[0]?.form?.file?.[0]).toMatchObject({ name: 'input.mp3', size });
    expect(growth).toBeLessThan(size / 5);
  }, 60_000);

  it('sends an input ElevenLabs can fetch as source_url, uploading nothing', async () => {
    const context = {
      ...testContext(),
      inputFile: async (url: string) => ({
        ...generatedFile(url, 1000, 'audio/mpeg'),
        publicUrl: 'https://cdn.example/a.mp3',
        open: async () => {
          throw new Error('must not be read');
        },
      }),
    };
    await provider().run(scribe(), context);
    const form = server.requests[0]?.form;
    expect(form?.source_url).toEqual(['https://cdn.example/a.mp3']);
    expect(form?.file).toBeUndefined();
  });

  it('refuses an upload over the documented 5 GB before sending anything', async () => {
    const context = {
      ...testContext(),
      inputFile: async (url: string) => generatedFile(url, 5_100_000_000, 'audio/mpeg'),
    };
    const error = await failure(provider().run(scribe(), context));
    expect(error.code).toBe('provider_rejected');
    expect(server.requests).toHaveLength(0);
  });

  it('fails a music prompt refused as bad_prompt with content_policy_violation and ElevenLabs’ message', async () => {
    const error = await failure(
      provider().run(
        runInput('elevenlabs', 'music_v1', 'music', { prompt: 'REFUSE-ME in the style of', duration: 10 }),
        testContext(),
      ),
    );
    expect(error.code).toBe('content_policy_violation');
    expect(error.message).toMatch(/violated our Terms of Service/);
  });

  it('does not speak a piece again when the connection drops after ElevenLabs took it', async () => {
    server.dropAfterAccept = 1;
    const error = await failure(provider().run(speech({ text: 'Hello.' }), testContext()));
    expect(error.code).toBe('provider_submit_unknown');
    expect(server.accepted).toBe(1);
    expect(server.requests).toHaveLength(1);
  });

  it('reads ElevenLabs’ answers to an unknown model and an output_format outside the enum as provider_rejected', async () => {
    const api = elevenLabsApi(server.url, server.key);
    const unknown = await failure(
      api('/text-to-speech/21m00Tcm4TlvDq8ikWAM', {
        method: 'POST',
        json: { text: 'x', model_id: 'eleven_v9' },
      }),
    );
    expect(unknown.code).toBe('provider_rejected');
    expect(unknown.message).toMatch(/eleven_v9 does not exist/);

    const format = await failure(
      provider().run(
        speech({ text: 'x', provider_options: { elevenlabs: { output_format: 'mp3_1_1' } } }),
        testContext(),
      ),
    );
    expect(format.code).toBe('provider_rejected');
    expect(format.options.status).toBe(422);
    expect(server.accepted).toBe(0);
  });
});
