import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { type FormValue, type RecordedRequest, record, sendJson } from './openai-run-context.ts';

/** Bytes the server answers: recognisable, not real media. */
export const PNG_BYTES = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
export const MP4_BYTES = Buffer.from('....ftypisom-test-video');
export const speechBytes = (input: string) => Buffer.from(`MP3[${input.length}]`);

/** OpenAI's rate-limit headers, on every answer (values of a generous tier). */
const RATE_LIMIT_HEADERS = {
  'x-ratelimit-limit-requests': '5000',
  'x-ratelimit-remaining-requests': '4999',
  'x-ratelimit-reset-requests': '12ms',
  'x-ratelimit-limit-tokens': '800000',
  'x-ratelimit-remaining-tokens': '799990',
  'x-ratelimit-reset-tokens': '1ms',
};

interface Video {
  id: string;
  model: string;
  seconds: string;
  size: string;
  polls: number;
  status: string;
}

/*
 * The rules below are written from OpenAI's API reference (https://platform.openai.com/docs/api-reference,
 * whose parameter docs openai-node's src/resources/{images,audio/speech,audio/transcriptions}.ts carry),
 * not from the adapter: a rule the adapter breaks is answered as OpenAI answers it.
 */

/** Image models and their documented parameters ("Create image", "Create image edit"). */
interface ImageModel {
  sizes: readonly string[];
  maxN: number;
  promptMax: number;
  qualities: readonly string[];
  /** `response_format` (url | b64_json) is taken by the DALL·E models only. */
  responseFormat: boolean;
  /** Edit inputs: how many images, how large each, which types; null when the model cannot edit. */
  edits: { maxImages: number; maxBytes: number; types: readonly string[] } | null;
  /** The moderation refusal's code: GPT image models answer `moderation_blocked`, DALL·E `content_policy_violation`. */
  refusal: string;
}
const MiB = 1024 * 1024;
const GPT_IMAGE: ImageModel = {
  sizes: ['1024x1024', '1536x1024', '1024x1536', 'auto'],
  maxN: 10,
  promptMax: 32_000,
  qualities: ['low', 'medium', 'high', 'auto'],
  responseFormat: false,
  edits: { maxImages: 16, maxBytes: 50 * MiB, types: ['image/png', 'image/webp', 'image/jpeg'] },
  refusal: 'moderation_blocked',
};
const IMAGE_MODELS: Record<string, ImageModel> = {
  'gpt-image-1': GPT_IMAGE,
  'gpt-image-1-mini': GPT_IMAGE,
  'gpt-image-1.5': GPT_IMAGE,
  // Named on OpenAI's deprecations page as gpt-image-1's replacement; its reference lists the same
  // sizes, qualities and edit inputs as the other GPT image models.
  'gpt-image-2': GPT_IMAGE,
  'dall-e-2': {
    sizes: ['256x256', '512x512', '1024x1024'],
    maxN: 10,
    promptMax: 1000,
    qualities: ['standard'],
    responseFormat: true,
    edits: { maxImages: 1, maxBytes: 4 * MiB, types: ['image/png'] },
    refusal: 'content_policy_violation',
  },
  'dall-e-3': {
    sizes: ['1024x1024', '1792x1024', '1024x1792'],
    maxN: 1,
    promptMax: 4000,
    qualities: ['standard', 'hd'],
    responseFormat: true,
    edits: null,
    refusal: 'content_policy_violation',
  },
};

/** "Create speech": models, built-in voices, formats, speed 0.25-4.0, input up to 4096 characters. */
const SPEECH_MODELS = ['tts-1', 'tts-1-hd', 'gpt-4o-mini-tts', 'gpt-4o-mini-tts-2025-12-15'];
const SPEECH_VOICES = [
  'alloy',
  'ash',
  'ballad',
  'coral',
  'echo',
  'fable',
  'onyx',
  'nova',
  'sage',
  'shimmer',
  'verse',
  'marin',
  'cedar',
];
const SPEECH_FORMATS = ['mp3', 'opus', 'aac', 'flac', 'wav', 'pcm'];

/**
 * "Create transcription": models and formats (the gpt-4o ones answer `json` only); audio as flac, mp3, mp4,
 * mpeg, mpga, m4a, ogg, wav or webm; "File uploads are currently limited to 25 MB"
 * (https://platform.openai.com/docs/guides/speech-to-text), answered 413 past 26214400 bytes.
 */
const TRANSCRIPTION_MODELS: Record<string, readonly string[]> = {
  'whisper-1': ['json', 'text', 'srt', 'verbose_json', 'vtt'],
  'gpt-4o-transcribe': ['json'],
  'gpt-4o-mini-transcribe': ['json'],
  'gpt-4o-mini-transcribe-2025-12-15': ['json'],
};
const AUDIO_EXTENSIONS = ['flac', 'mp3', 'mp4', 'mpeg', 'mpga', 'm4a', 'ogg', 'wav', 'webm'];
const TRANSCRIPTION_MAX_BYTES = 26_214_400;

/**
 * A local stand-in for OpenAI's REST API, answering as its reference shows: bearer auth, errors as
 * `{error: {message, type, param, code}}`, rate-limit headers on every answer
 * (https://platform.openai.com/docs/guides/rate-limits#rate-limits-in-headers), `/images/generations|edits`,
 * `/audio/speech`, `/audio/transcriptions`, and the Videos API with `queued → in_progress → completed`.
 */
export interface OpenAIProtocolServer {
  /** The base URL, as OPENAI_BASE_URL (ends in `/v1`). */
  url: string;
  key: string;
  requests: RecordedRequest[];
  /** The next `count` requests answer 429 with these headers. */
  rateLimit(count: number, headers: Record<string, string>): void;
  /** How new videos end: completed after a few polls, failed, or running until cancelled. */
  videos: 'succeed' | 'fail' | 'hold';
  /** Synchronous endpoints never answer (until the client gives up). */
  hold: boolean;
  /** A video that already exists (for resumed jobs). */
  addVideo(id: string, status: string): void;
  /** Milliseconds before each answer. */
  latencyMs: number;
  /** Prompts (or speech input) containing this are refused by "moderation". */
  moderationTrigger: string;
  /** The next `count` POSTs are read whole, counted as taken (`accepted`), and their connection dropped. */
  dropAfterAccept: number;
  /** POSTs that reached the point of doing (and billing) work, including dropped ones. */
  accepted: number;
  /** The most requests in flight at once so far. */
  peakConcurrency: number;
  close(): Promise<void>;
}

export async function startOpenAIServer(key = 'sk-test-key'): Promise<OpenAIProtocolServer> {
  const videos = new Map<string, Video>();
  let limited: { count: number; headers: Record<string, string> } = { count: 0, headers: {} };
  const api: OpenAIProtocolServer = {
    url: '',
    key,
    requests: [],
    rateLimit: (count, headers) => {
      limited = { count, headers };
    },
    videos: 'succeed',
    hold: false,
    latencyMs: 0,
    moderationTrigger: 'REFUSE-ME',
    dropAfterAccept: 0,
    accepted: 0,
    peakConcurrency: 0,
    addVideo: (id, status) => {
      videos.set(id, { id, model: 'sora-2', seconds: '8', size: '1280x720', polls: 99, status });
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };

  let inFlight = 0;
  const server = createServer(async (req, res) => {
    inFlight++;
    api.peakConcurrency = Math.max(api.peakConcurrency, inFlight);
    res.on('close', () => inFlight--);
    const request = await record(req, res, api.url);
    api.requests.push(request);
    if (request.aborted) return;
    if (api.latencyMs > 0) await sleep(api.latencyMs);
    for (const [name, value] of Object.entries(RATE_LIMIT_HEADERS)) res.setHeader(name, value);
    const path = request.path.replace(/^\/v1/, '');
    if (path.startsWith('/files/')) {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(PNG_BYTES);
      return;
    }
    if (req.headers.authorization !== `Bearer ${key}`) {
      sendJson(res, 401, {
        error: {
          message:
            'Incorrect API key provided. You can find your API key at https://platform.openai.com/account/api-keys.',
          type: 'invalid_request_error',
          param: null,
          code: 'invalid_api_key',
        },
      });
      return;
    }
    if (limited.count > 0) {
      limited.count--;
      sendJson(
        res,
        429,
        {
          error: {
            message: 'Rate limit reached for requests',
            type: 'requests',
            param: null,
            code: 'rate_limit_exceeded',
          },
        },
        limited.headers,
      );
      return;
    }
    const video = /^\/videos\/([^/]+)(\/content)?$/.exec(path);
    if (request.method === 'POST' && path === '/videos') return createVideo(request, res);
    if (video && request.method === 'GET' && !video[2]) return getVideo(video[1]!, res);
    if (video && request.method === 'GET' && video[2]) return videoContent(video[1]!, res);
    if (video && request.method === 'DELETE') {
      videos.delete(video[1]!);
      return sendJson(res, 200, { id: video[1], object: 'video.deleted', deleted: true });
    }
    if (api.hold) return; // never answers: the client aborts
    if (request.method === 'POST' && (path === '/images/generations' || path === '/images/edits')) {
      return images(request, res, path === '/images/edits');
    }
    if (request.method === 'POST' && path === '/audio/speech') return speech(request, res);
    if (request.method === 'POST' && path === '/audio/transcriptions') return transcription(request, res);
    sendJson(res, 404, {
      error: { message: `Invalid URL (${request.method} ${request.path})`, type: 'invalid_request_error' },
    });
  });

  function field(request: RecordedRequest, name: string): unknown {
    if (request.json) return request.json[name];
    const value: FormValue | undefined = request.form?.[name]?.[0];
    return typeof value === 'string' ? value : undefined;
  }

  /** Work is taken from here on: counted, and dropped without an answer when asked to. */
  function accept(res: ServerResponse): boolean {
    api.accepted++;
    if (api.dropAfterAccept <= 0) return true;
    api.dropAfterAccept--;
    res.socket?.destroy();
    return false;
  }

  function images(request: RecordedRequest, res: ServerResponse, edit: boolean) {
    const model = String(field(request, 'model') ?? (edit ? 'gpt-image-1.5' : 'dall-e-2'));
    const rules = Object.hasOwn(IMAGE_MODELS, model) ? IMAGE_MODELS[model]! : null;
    if (!rules) return modelNotFound(res, model);
    const prompt = String(field(request, 'prompt') ?? '');
    if (!prompt)
      return invalid(res, 'prompt', "Missing required parameter: 'prompt'.", 'missing_required_parameter');
    if (prompt.length > rules.promptMax) {
      return invalid(
        res,
        'prompt',
        `Invalid 'prompt': string too long. Expected a string with maximum length ${rules.promptMax}, but got a string with length ${prompt.length} instead.`,
        'string_above_max_length',
      );
    }
    const n = Number(field(request, 'n') ?? 1);
    if (!Number.isInteger(n) || n < 1 || n > rules.maxN) {
      return invalid(
        res,
        'n',
        `Invalid 'n': ${model} makes 1 to ${rules.maxN} images per request.`,
        'integer_above_max_value',
      );
    }
    for (const [name, allowed] of [
      ['size', rules.sizes],
      ['quality', rules.qualities],
    ] as const) {
      const value = field(request, name);
      if (value !== undefined && !allowed.includes(String(value)))
        return invalidValue(res, name, value, allowed);
    }
    const responseFormat = field(request, 'response_format');
    if (responseFormat !== undefined && !rules.responseFormat) {
      return invalid(res, 'response_format', `Unknown parameter: 'response_format'.`, 'unknown_parameter');
    }
    if (edit) {
      if (!rules.edits) return invalid(res, 'model', `${model} cannot edit images.`, 'invalid_value');
      const images = [...(request.form?.['image[]'] ?? []), ...(request.form?.image ?? [])];
      if (images.length === 0)
        return invalid(res, 'image', "Missing required parameter: 'image'.", 'missing_required_parameter');
      if (images.length > rules.edits.maxImages) {
        return invalid(
          res,
          'image',
          `${model} takes at most ${rules.edits.maxImages} images.`,
          'invalid_value',
        );
      }
      for (const image of [...images, ...(request.form?.mask ?? [])]) {
        if (typeof image === 'string')
          return invalid(res, 'image', "'image' must be a file.", 'invalid_value');
        if (!rules.edits.types.includes(image.type)) {
          return invalid(
            res,
            'image',
            `Invalid file '${image.name}': unsupported mimetype ('${image.type}').`,
            'invalid_image_format',
          );
        }
        if (image.size > rules.edits.maxBytes) {
          return invalid(
            res,
            'image',
            `Invalid file '${image.name}': file too large (${image.size} bytes).`,
            'image_too_large',
          );
        }
      }
    }
    if (prompt.includes(api.moderationTrigger)) {
      // GPT image: https://platform.openai.com/docs/guides/image-generation (content moderation).
      return sendJson(res, 400, {
        error: {
          message:
            'Your request was rejected by the safety system. If you believe this is an error, contact us at help.openai.com.',
          type:
            rules.refusal === 'moderation_blocked' ? 'image_generation_user_error' : 'invalid_request_error',
          param: null,
          code: rules.refusal,
        },
      });
    }
    if (!accept(res)) return;
    const b64 = !rules.responseFormat || responseFormat === 'b64_json';
    const data = Array.from({ length: n }, (_, i) =>
      b64 ? { b64_json: PNG_BYTES.toString('base64') } : { url: `${api.url}/files/image-${i + 1}.png` },
    );
    sendJson(res, 200, {
      created: 1_700_000_000,
      data,
      ...(rules.responseFormat ? {} : { output_format: String(field(request, 'output_format') ?? 'png') }),
    });
  }

  function speech(request: RecordedRequest, res: ServerResponse) {
    const model = String(request.json?.model ?? '');
    if (!SPEECH_MODELS.includes(model)) return modelNotFound(res, model);
    const input = String(request.json?.input ?? '');
    if (input.length > 4096) {
      return invalid(res, 'input', "'input' is too long: string too long", 'string_above_max_length');
    }
    const voice = request.json?.voice;
    if (typeof voice === 'string' && !SPEECH_VOICES.includes(voice))
      return invalidValue(res, 'voice', voice, SPEECH_VOICES);
    const format = request.json?.response_format;
    if (format !== undefined && !SPEECH_FORMATS.includes(String(format))) {
      return invalidValue(res, 'response_format', format, SPEECH_FORMATS);
    }
    const speed = request.json?.speed;
    if (speed !== undefined && !(typeof speed === 'number' && speed >= 0.25 && speed <= 4)) {
      return invalid(res, 'speed', `Invalid 'speed': expected a number from 0.25 to 4.0.`, 'invalid_value');
    }
    if (request.json?.instructions !== undefined && model.startsWith('tts-1')) {
      return invalid(
        res,
        'instructions',
        `Instructions are not supported with ${model}.`,
        'unsupported_parameter',
      );
    }
    if (!accept(res)) return;
    res.writeHead(200, { 'content-type': 'audio/mpeg' });
    res.end(speechBytes(input));
  }

  function transcription(request: RecordedRequest, res: ServerResponse) {
    const file = request.form?.file?.[0];
    if (file && typeof file !== 'string' && file.size > TRANSCRIPTION_MAX_BYTES) {
      return sendJson(res, 413, {
        error: {
          message: `Maximum content size limit (${TRANSCRIPTION_MAX_BYTES}) exceeded (${file.size} bytes read)`,
          type: 'server_error',
          param: null,
          code: null,
        },
      });
    }
    const model = String(field(request, 'model') ?? '');
    const formats = Object.hasOwn(TRANSCRIPTION_MODELS, model) ? TRANSCRIPTION_MODELS[model]! : null;
    if (!formats) return modelNotFound(res, model);
    if (!file || typeof file === 'string') {
      return invalid(res, 'file', "Missing required parameter: 'file'.", 'missing_required_parameter');
    }
    const extension = file.name.split('.').pop()?.toLowerCase() ?? '';
    if (!AUDIO_EXTENSIONS.includes(extension)) {
      return invalid(
        res,
        'file',
        `Invalid file format. Supported formats: ${JSON.stringify(AUDIO_EXTENSIONS)}`,
        'invalid_value',
      );
    }
    const format = String(field(request, 'response_format') ?? 'json');
    if (!formats.includes(format)) {
      return invalid(
        res,
        'response_format',
        `response_format '${format}' is not compatible with model '${model}'. Use ${formats.join(', ')}.`,
        'unsupported_value',
      );
    }
    if (!accept(res)) return;
    if (format === 'verbose_json') {
      return sendJson(res, 200, {
        task: 'transcribe',
        language: 'english',
        duration: 90,
        text: 'Hello there. General Kenobi.',
        segments: [
          { id: 0, seek: 0, start: 0, end: 1.5, text: ' Hello there.', tokens: [], temperature: 0 },
          { id: 1, seek: 0, start: 1.5, end: 3, text: ' General Kenobi.', tokens: [], temperature: 0 },
        ],
        usage: { type: 'duration', seconds: 90 },
      });
    }
    sendJson(res, 200, {
      text: 'Hello there.',
      usage: { type: 'tokens', input_tokens: 14, output_tokens: 4, total_tokens: 18 },
    });
  }

  /** OpenAI's answer for a model id it does not serve (404, `model_not_found`). */
  function modelNotFound(res: ServerResponse, model: string) {
    sendJson(res, 404, {
      error: {
        message: `The model \`${model}\` does not exist or you do not have access to it.`,
        type: 'invalid_request_error',
        param: null,
        code: 'model_not_found',
      },
    });
  }

  function invalid(res: ServerResponse, param: string, message: string, code: string) {
    sendJson(res, 400, { error: { message, type: 'invalid_request_error', param, code } });
  }

  function invalidValue(res: ServerResponse, param: string, value: unknown, allowed: readonly string[]) {
    const list = allowed.map((a) => `'${a}'`).join(', ');
    invalid(res, param, `Invalid value: '${String(value)}'. Supported values are: ${list}.`, 'invalid_value');
  }

  function createVideo(request: RecordedRequest, res: ServerResponse) {
    if (!accept(res)) return;
    const id = `video_${videos.size + 1}`;
    const created: Video = {
      id,
      model: String(field(request, 'model') ?? 'sora-2'),
      seconds: String(field(request, 'seconds') ?? '4'),
      size: String(field(request, 'size') ?? '720x1280'),
      polls: 0,
      status: 'queued',
    };
    videos.set(id, created);
    sendJson(res, 200, videoJson(created));
  }

  function getVideo(id: string, res: ServerResponse) {
    const video = videos.get(id);
    if (!video) return notFound(id, res);
    video.polls++;
    if (video.polls >= 2 && video.status === 'queued') video.status = 'in_progress';
    if (video.polls >= 3 && video.status === 'in_progress' && api.videos !== 'hold') {
      video.status = api.videos === 'fail' ? 'failed' : 'completed';
    }
    sendJson(res, 200, videoJson(video));
  }

  function videoContent(id: string, res: ServerResponse) {
    const video = videos.get(id);
    if (!video) return notFound(id, res);
    if (video.status !== 'completed') {
      return sendJson(res, 400, {
        error: { message: 'Video is not ready yet.', type: 'invalid_request_error' },
      });
    }
    res.writeHead(200, { 'content-type': 'video/mp4' });
    res.end(MP4_BYTES);
  }

  function notFound(id: string, res: ServerResponse) {
    sendJson(res, 404, {
      error: { message: `Video with id '${id}' not found.`, type: 'invalid_request_error' },
    });
  }

  function videoJson(video: Video) {
    const progress = { queued: 0, in_progress: 50, completed: 100, failed: 50 }[video.status] ?? 0;
    return {
      id: video.id,
      object: 'video',
      model: video.model,
      status: video.status,
      progress,
      created_at: 1_700_000_000,
      completed_at: video.status === 'completed' ? 1_700_000_100 : null,
      expires_at: null,
      prompt: 'test',
      remixed_from_video_id: null,
      seconds: video.seconds,
      size: video.size,
      error:
        video.status === 'failed'
          ? { code: 'moderation_blocked', message: 'Your request was blocked by our moderation system.' }
          : null,
    };
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  api.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return api;
}
