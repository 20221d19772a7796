import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ELEVENLABS_PREMADE_VOICES } from '../../../domain/presets/elevenlabs-voices.ts';
import { type RecordedRequest, record, sendJson } from './openai-run-context.ts';

export const ttsBytes = (text: string) => Buffer.from(`TTS[${text.length}]`);
export const MUSIC_BYTES = Buffer.from('MUSIC-BYTES');

/** Characters per request by model, as ElevenLabs' models page lists them. */
const LIMITS: Record<string, number> = {
  eleven_multilingual_v2: 10_000,
  eleven_turbo_v2_5: 40_000,
  eleven_flash_v2_5: 40_000,
  eleven_v3: 5_000,
};

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
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };

  const server = createServer(async (req, res) => {
    const request = await record(req, res, api.url);
    api.requests.push(request);
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
    if (request.method === 'POST' && path === '/music') return music(request, res, requestId);
    if (request.method === 'POST' && path === '/speech-to-text')
      return transcription(request, res, requestId);
    sendJson(res, 404, { detail: 'Not Found' });
  });

  function detail(res: ServerResponse, status: number, code: string, message: string, headers = {}) {
    sendJson(res, status, { detail: { status: code, message } }, headers);
  }

  function speech(request: RecordedRequest, res: ServerResponse, voiceId: string, requestId: string) {
    // The account's voices: the default ones.
    if (!ELEVENLABS_PREMADE_VOICES.some((v) => v.id === voiceId)) {
      return detail(res, 404, 'voice_not_found', `A voice with the voice_id ${voiceId} was not found.`);
    }
    const text = String(request.json?.text ?? '');
    const limit = LIMITS[String(request.json?.model_id)] ?? 10_000;
    if (text.length > limit) {
      return detail(
        res,
        400,
        'max_character_limit_exceeded',
        `Text is too long (${text.length} > ${limit}).`,
      );
    }
    res.writeHead(200, {
      'content-type': 'audio/mpeg',
      'request-id': requestId,
      'x-character-count': String(text.length),
    });
    res.end(ttsBytes(text));
  }

  function music(request: RecordedRequest, res: ServerResponse, requestId: string) {
    const length = request.json?.music_length_ms;
    if (typeof length === 'number' && (length < 3000 || length > 300_000)) {
      return sendJson(res, 422, {
        detail: [
          {
            loc: ['body', 'music_length_ms'],
            msg: 'Input should be between 3000 and 300000',
            type: 'value_error',
          },
        ],
      });
    }
    res.writeHead(200, { 'content-type': 'audio/mpeg', 'request-id': requestId });
    res.end(MUSIC_BYTES);
  }

  function transcription(_request: RecordedRequest, res: ServerResponse, requestId: string) {
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
