import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { ELEVENLABS_PREMADE_VOICES } from '../../../domain/presets/elevenlabs-voices.ts';
import { type RecordedRequest, record, sendJson } from './openai-run-context.ts';

export const ttsBytes = (text: string) => Buffer.from(`TTS[${text.length}]`);
export const MUSIC_BYTES = Buffer.from('MUSIC-BYTES');

/*
 * Rules from ElevenLabs' documentation, not from the adapter:
 * - characters per request: https://help.elevenlabs.io/hc/en-us/articles/19572237925521 (Flash/Turbo v2.5
 *   40,000, Flash/Turbo v2 30,000, Multilingual v2 10,000; 400 `max_character_limit_exceeded`) and
 *   https://elevenlabs.io/docs/overview/models (Eleven v3 5,000);
 * - output formats, music and speech-to-text models and limits: the API reference
 *   (https://elevenlabs.io/docs/api-reference, as elevenlabs-js carries it): music_length_ms 3000-600000,
 *   speech-to-text file under 5.0 GB, exactly one of `file` / `cloud_storage_url` / `source_url`;
 * - request validation answered 422 `{detail: [{loc, msg, type}]}` (the reference's HTTPValidationError),
 *   other errors `{detail: {status, message}}`;
 * - Eleven Music's refusals `bad_prompt` with a `prompt_suggestion`
 *   (https://elevenlabs.io/docs/cookbooks/music/quickstart#copyrighted-material);
 * - 429 `too_many_concurrent_requests` past the plan's concurrency
 *   (https://elevenlabs.io/docs/models#concurrency-and-priority);
 * - the voice listing `GET /v1/voices` (the reference's GetVoicesResponse, elevenlabs-js `voices.getAll`):
 *   `{ voices: [{ voice_id, name, category, labels, description, preview_url, ... }] }`, every voice in one
 *   answer, the earlier default voices only with `show_legacy=true`; `preview_url` is a public MP3 (on
 *   ElevenLabs' storage there, on this server here).
 */
const LIMITS: Record<string, number> = {
  eleven_multilingual_v2: 10_000,
  eleven_turbo_v2_5: 40_000,
  eleven_flash_v2_5: 40_000,
  eleven_turbo_v2: 30_000,
  eleven_flash_v2: 30_000,
  eleven_v3: 5_000,
};
const OUTPUT_FORMATS = [
  'alaw_8000',
  'mp3_22050_32',
  'mp3_24000_48',
  'mp3_44100_128',
  'mp3_44100_192',
  'mp3_44100_32',
  'mp3_44100_64',
  'mp3_44100_96',
  'opus_48000_128',
  'opus_48000_192',
  'opus_48000_32',
  'opus_48000_64',
  'opus_48000_96',
  'pcm_16000',
  'pcm_22050',
  'pcm_24000',
  'pcm_32000',
  'pcm_44100',
  'pcm_48000',
  'pcm_8000',
  'ulaw_8000',
  'wav_16000',
  'wav_22050',
  'wav_24000',
  'wav_32000',
  'wav_44100',
  'wav_48000',
  'wav_8000',
];
const MUSIC_MODELS = ['music_v1', 'music_v2'];
const SCRIBE_MODELS = ['scribe_v1', 'scribe_v2'];

/** Scribe's word list for "Hello there. How are you" with a long pause before "How". */
export const SCRIBE_WORDS = [
  { text: 'Hello', start: 0, end: 0.4, type: 'word', speaker_id: 'speaker_0' },
  { text: ' ', start: 0.4, end: 0.5, type: 'spacing', speaker_id: 'speaker_0' },
  { text: 'there.', start: 0.5, end: 0.9, type: 'word', speaker_id: 'speaker_0' },
  { text: ' ', start: 0.9, end: 1.0, type: 'spacing', speaker_id: 'speaker_0' },
  { text: 'How', start: 1.0, end: 1.2, type: 'word', speaker_id: 'speaker_0' },
  { text: ' ', start: 1.2, end: 1.3, type: 'spacing', speaker_id: 'speaker_0' },
  { text: 'are', start: 1.3, end: 1.5, type: 'word', speaker_id: 'speaker_0' },
  { text: ' ', start: 1.5, end: 2.6, type: 'spacing', speaker_id: 'speaker_0' },
  { text: 'you', start: 2.6, end: 3.1, type: 'word', speaker_id: 'speaker_0' },
];

/**
 * A local stand-in for ElevenLabs' REST API, answering as its reference shows: `xi-api-key` auth (401
 * with `{detail: {status, message}}`), `/text-to-speech/{voice_id}` (audio, `request-id`,
 * `x-character-count`), `/music` (audio), `/speech-to-text` (words with timestamps).
 */
export interface ElevenLabsProtocolServer {
  /** The base URL, as ELEVENLABS_API_URL (ends in `/v1`). */
  url: string;
  key: string;
  requests: RecordedRequest[];
  /** `count` requests, after `after` more are served, answer 429 `too_many_concurrent_requests`. */
  rateLimit(count: number, headers?: Record<string, string>, after?: number): void;
  /** The next request answers 500 `internal_error`. */
  failNext: boolean;
  /** Requests are never answered (until the client gives up). */
  hold: boolean;
  /** Milliseconds before each answer. */
  latencyMs: number;
  /** Requests in flight past this answer 429 `too_many_concurrent_requests`. */
  maxConcurrent: number;
  /** Music prompts containing this are refused with `bad_prompt`. */
  refusalTrigger: string;
  /** The next `count` POSTs are read whole, counted as taken (`accepted`), and their connection dropped. */
  dropAfterAccept: number;
  /** POSTs that reached the point of doing (and billing) work, including dropped ones. */
  accepted: number;
  /** Largest speech-to-text upload (documented: under 5.0 GB; lower it to test the refusal). */
  maxUploadBytes: number;
  /** The `preview_url` the voice listing gives a voice. */
  sampleUrl(voiceId: string): string;
  close(): Promise<void>;
}

export async function startElevenLabsServer(key = 'xi-test-key'): Promise<ElevenLabsProtocolServer> {
  let limited: { count: number; headers: Record<string, string>; after: number } = {
    count: 0,
    headers: {},
    after: 0,
  };
  let served = 0;
  const api: ElevenLabsProtocolServer = {
    url: '',
    key,
    requests: [],
    rateLimit: (count, headers = {}, after = 0) => {
      limited = { count, headers, after };
    },
    failNext: false,
    hold: false,
    latencyMs: 0,
    maxConcurrent: 15,
    refusalTrigger: 'REFUSE-ME',
    dropAfterAccept: 0,
    accepted: 0,
    maxUploadBytes: 5_000_000_000,
    sampleUrl: (voiceId) => `${api.url.replace(/\/v1$/, '')}/premade/voices/${voiceId}/sample.mp3`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };

  let inFlight = 0;
  const server = createServer(async (req, res) => {
    inFlight++;
    res.on('close', () => inFlight--);
    const request = await record(req, res, api.url);
    api.requests.push(request);
    if (request.aborted) return;
    if (api.latencyMs > 0) await sleep(api.latencyMs);
    if (inFlight > api.maxConcurrent) {
      return detail(
        res,
        429,
        'too_many_concurrent_requests',
        `Current concurrency limit: ${api.maxConcurrent}.`,
      );
    }
    // The samples are public files (no key), as on ElevenLabs' storage.
    if (request.method === 'GET' && /^\/premade\/voices\/[^/]+\/sample\.mp3$/.test(request.path)) {
      res.writeHead(200, { 'content-type': 'audio/mpeg' });
      return res.end(ttsBytes('sample'));
    }
    const path = request.path.replace(/^\/v1/, '');
    if (req.headers['xi-api-key'] !== key) {
      return detail(res, 401, 'invalid_api_key', 'Invalid API key');
    }
    if (limited.count > 0 && limited.after-- <= 0) {
      limited.count--;
      return detail(
        res,
        429,
        'too_many_concurrent_requests',
        'You are sending too many concurrent requests. Current concurrency limit: 2.',
        limited.headers,
      );
    }
    if (api.failNext) {
      api.failNext = false;
      return detail(res, 500, 'internal_error', 'An internal error occurred while generating audio.');
    }
    if (api.hold) return;
    const requestId = `req_${++served}`;
    const tts = /^\/text-to-speech\/([^/]+)$/.exec(path);
    if (request.method === 'POST' && tts) return speech(request, res, tts[1]!, requestId);
    if (request.method === 'GET' && path === '/voices') return voices(request, res, requestId);
    if (request.method === 'POST' && path === '/music') return music(request, res, requestId);
    if (request.method === 'POST' && path === '/speech-to-text')
      return transcription(request, res, requestId);
    sendJson(res, 404, { detail: 'Not Found' });
  });

  /** Work is taken from here on: counted, and dropped without an answer when asked to. */
  function accept(res: ServerResponse): boolean {
    api.accepted++;
    if (api.dropAfterAccept <= 0) return true;
    api.dropAfterAccept--;
    res.socket?.destroy();
    return false;
  }

  /** A request validation failure as the API reference shows it (422, HTTPValidationError). */
  function validation(res: ServerResponse, loc: (string | number)[], msg: string, type = 'value_error') {
    sendJson(res, 422, { detail: [{ loc, msg, type }] });
  }

  function outputFormatOk(request: RecordedRequest, res: ServerResponse): boolean {
    const format = request.query.get('output_format');
    if (format === null || OUTPUT_FORMATS.includes(format) || format === 'auto') return true;
    validation(
      res,
      ['query', 'output_format'],
      `Input should be ${OUTPUT_FORMATS.map((f) => `'${f}'`).join(', ')}`,
      'enum',
    );
    return false;
  }

  function detail(res: ServerResponse, status: number, code: string, message: string, headers = {}) {
    sendJson(res, status, { detail: { status: code, message } }, headers);
  }

  function speech(request: RecordedRequest, res: ServerResponse, voiceId: string, requestId: string) {
    // The account's voices: the default ones.
    if (!ELEVENLABS_PREMADE_VOICES.some((v) => v.id === voiceId)) {
      return detail(res, 404, 'voice_not_found', `A voice with the voice_id ${voiceId} was not found.`);
    }
    const model = String(request.json?.model_id ?? 'eleven_multilingual_v2');
    if (!Object.hasOwn(LIMITS, model)) {
      // The status name is not documented; the shape is that of the documented errors.
      return detail(res, 400, 'model_not_found', `A model with model ID ${model} does not exist.`);
    }
    if (!outputFormatOk(request, res)) return;
    const text = String(request.json?.text ?? '');
    const limit = LIMITS[model]!;
    if (text.length > limit) {
      return detail(
        res,
        400,
        'max_character_limit_exceeded',
        `This request's text has ${text.length} characters and exceeds the character limit of ${limit} characters.`,
      );
    }
    if (!accept(res)) return;
    res.writeHead(200, {
      'content-type': 'audio/mpeg',
      'request-id': requestId,
      'x-character-count': String(text.length),
    });
    res.end(ttsBytes(text));
  }

  function voices(request: RecordedRequest, res: ServerResponse, requestId: string) {
    const legacy = request.query.get('show_legacy') === 'true';
    const listed = ELEVENLABS_PREMADE_VOICES.filter((v) => legacy || !v.legacy).map((v) => ({
      voice_id: v.id,
      name: v.name,
      category: 'premade',
      labels: {
        accent: v.accent,
        description: v.description,
        gender: v.gender,
        ...(v.age ? { age: v.age } : {}),
        ...(v.useCase ? { use_case: v.useCase } : {}),
      },
      description: null,
      preview_url: api.sampleUrl(v.id),
      available_for_tiers: [],
      settings: null,
      high_quality_base_model_ids: ['eleven_multilingual_v2'],
      is_legacy: v.legacy ?? false,
    }));
    sendJson(res, 200, { voices: listed }, { 'request-id': requestId });
  }

  function music(request: RecordedRequest, res: ServerResponse, requestId: string) {
    const model = String(request.json?.model_id ?? 'music_v1');
    if (!MUSIC_MODELS.includes(model)) {
      return validation(
        res,
        ['body', 'model_id'],
        `Input should be ${MUSIC_MODELS.map((m) => `'${m}'`).join(' or ')}`,
        'enum',
      );
    }
    if (!outputFormatOk(request, res)) return;
    const length = request.json?.music_length_ms;
    if (typeof length === 'number' && (length < 3000 || length > 600_000)) {
      return validation(res, ['body', 'music_length_ms'], 'Input should be between 3000 and 600000');
    }
    const prompt = String(request.json?.prompt ?? '');
    if (prompt.includes(api.refusalTrigger)) {
      return sendJson(res, 400, {
        detail: {
          status: 'bad_prompt',
          message:
            'Your prompt appears to have violated our Terms of Service. Please try again with a different prompt.',
          data: { prompt_suggestion: 'An original cinematic orchestral piece.' },
        },
      });
    }
    if (!accept(res)) return;
    res.writeHead(200, { 'content-type': 'audio/mpeg', 'request-id': requestId });
    res.end(MUSIC_BYTES);
  }

  function transcription(request: RecordedRequest, res: ServerResponse, requestId: string) {
    const value = (name: string) => request.form?.[name]?.[0];
    const model = value('model_id');
    if (typeof model !== 'string' || !SCRIBE_MODELS.includes(model)) {
      return validation(
        res,
        ['body', 'model_id'],
        `Input should be ${SCRIBE_MODELS.map((m) => `'${m}'`).join(' or ')}`,
        'enum',
      );
    }
    const file = value('file');
    const sources = [file, value('cloud_storage_url'), value('source_url')].filter((v) => v !== undefined);
    if (sources.length !== 1) {
      return detail(
        res,
        400,
        'invalid_parameters',
        'Exactly one of file, cloud_storage_url or source_url must be provided.',
      );
    }
    if (file && typeof file !== 'string' && file.size >= api.maxUploadBytes) {
      return detail(
        res,
        413,
        'file_too_large',
        `The file size must be less than ${api.maxUploadBytes} bytes.`,
      );
    }
    if (!accept(res)) return;
    sendJson(
      res,
      200,
      {
        language_code: 'eng',
        language_probability: 0.98,
        text: 'Hello there. How are you',
        words: SCRIBE_WORDS,
      },
      { 'request-id': requestId },
    );
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  api.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return api;
}
