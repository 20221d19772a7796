import { createHash, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import type { ReceivedRequest, StoredFile } from './fal-replicate-test-context.ts';
import {
  BodyTooLarge,
  countUpload,
  latency,
  listen,
  type ReceivedUpload,
  readJson,
  receivedOf,
  type StandInKnobs,
  sendJson,
} from './stand-in-http.ts';

/*
 * A local stand-in for fal, written from fal's documentation (not from our adapter):
 * - Queue API (fal.ai/docs/api-reference/inference-api; docs.fal.ai/model-endpoints/queue): `Authorization:
 *   Key <key>`; POST /{model id} -> { request_id, status_url, response_url, cancel_url } under the app path
 *   (owner/app, without the endpoint sub-path); GET .../status is 202 while IN_QUEUE (queue_position) or
 *   IN_PROGRESS and 200 once COMPLETED; `logs` only with ?logs=1 (null otherwise); GET the result; PUT cancel.
 * - Results are kept 1 hour, or 6 minutes when 10 KB or larger (fal.ai/docs/inference-api/queue/result);
 *   then the request is not found (404).
 * - Model errors (fal.ai/docs/documentation/model-apis/errors): 422 with `detail`, a list of { loc, msg, type,
 *   url?, input? }; a content-policy refusal has type `content_policy_violation`. The queue accepts any input:
 *   the model validates it when it runs, so a bad input fails the request and its result answers the 422.
 * - Request errors (fal.ai/docs/documentation/model-apis/request-errors): { detail, error_type } with the same
 *   value in X-Fal-Error-Type (runner_scheduling_failure 503, request_timeout 504, ...).
 * - Webhooks (fal.ai/docs/model-apis/webhooks): `?fal_webhook=<url>` on submit; once done, a POST of
 *   { request_id, gateway_request_id, status: OK | ERROR, payload, error? } signed with ED25519 over
 *   `request id \n user id \n timestamp \n sha256 hex of the body` in X-Fal-Webhook-{Request-Id, User-Id,
 *   Timestamp, Signature}; the public key is served as a JWKS at /.well-known/jwks.json.
 * - Storage, as fal-js's storage client uses it (libs/client/src/storage.ts): POST
 *   /storage/upload/initiate[-multipart]?storage_type=fal-cdn-v3 { content_type, file_name } -> { upload_url,
 *   file_url }; PUT the bytes (or PUT parts {upload}/{n} -> { partNumber, etag } and POST {upload}/complete).
 *   Uploads are counted and hashed as they stream in, never kept.
 * Unknown model ids answer 404. Knobs: latency, concurrency (requests IN_PROGRESS at once), dropping the
 * connection after accepting a submit, failing output downloads, holding requests, request errors, and
 * being unreachable (every connection closed unanswered).
 */

/** One model input field as fal's schema gives it: a type, or the allowed values of an enum. */
type Field =
  | 'string'
  | 'number'
  | 'boolean'
  | 'file'
  | 'image_size'
  | readonly string[]
  | { required: Field };
const req = (field: Field): Field => ({ required: field });
const IMAGE_SIZES = [
  'square_hd',
  'square',
  'portrait_4_3',
  'portrait_16_9',
  'landscape_4_3',
  'landscape_16_9',
];

/**
 * Input schemas of the models the catalog maps, from fal's published OpenAPI schemas
 * (fal.ai/models/<model id>/api; the same types fal-js generates in libs/client/src/types/endpoints.ts).
 * `image_size` also takes { width, height }. A model listed as null is known but no schema for it was found
 * (each says where it was looked for): any input is accepted.
 */
const MODELS: Record<string, Record<string, Field> | null> = {
  'fal-ai/flux/schnell': {
    acceleration: ['none', 'regular', 'high'],
    enable_safety_checker: 'boolean',
    guidance_scale: 'number',
    num_images: 'number',
    num_inference_steps: 'number',
    output_format: ['jpeg', 'png'],
    prompt: req('string'),
    seed: 'number',
    sync_mode: 'boolean',
  },
  'fal-ai/flux/dev': {
    acceleration: ['none', 'regular', 'high'],
    enable_safety_checker: 'boolean',
    guidance_scale: 'number',
    num_images: 'number',
    num_inference_steps: 'number',
    output_format: ['jpeg', 'png'],
    prompt: req('string'),
    seed: 'number',
    sync_mode: 'boolean',
  },
  'fal-ai/flux-pro/v1.1': {
    enhance_prompt: 'boolean',
    num_images: 'number',
    output_format: ['jpeg', 'png'],
    prompt: req('string'),
    safety_tolerance: ['1', '2', '3', '4', '5', '6'],
    seed: 'number',
    sync_mode: 'boolean',
  },
  'fal-ai/flux-pro/v1.1-ultra': {
    enhance_prompt: 'boolean',
    image_prompt_strength: 'number',
    image_url: 'file',
    num_images: 'number',
    output_format: ['jpeg', 'png'],
    prompt: req('string'),
    raw: 'boolean',
    safety_tolerance: ['1', '2', '3', '4', '5', '6'],
    seed: 'number',
    sync_mode: 'boolean',
  },
  'fal-ai/ideogram/v2': {
    aspect_ratio: ['10:16', '16:10', '9:16', '16:9', '4:3', '3:4', '1:1', '1:3', '3:1', '3:2', '2:3'],
    expand_prompt: 'boolean',
    negative_prompt: 'string',
    prompt: req('string'),
    seed: 'number',
    style: ['auto', 'general', 'realistic', 'design', 'render_3D', 'anime'],
    sync_mode: 'boolean',
  },
  'fal-ai/stable-diffusion-v35-large': {
    enable_safety_checker: 'boolean',
    guidance_scale: 'number',
    negative_prompt: 'string',
    num_images: 'number',
    num_inference_steps: 'number',
    output_format: ['jpeg', 'png'],
    prompt: req('string'),
    seed: 'number',
    sync_mode: 'boolean',
  },
  'fal-ai/hidream-i1-full': {
    enable_safety_checker: 'boolean',
    guidance_scale: 'number',
    negative_prompt: 'string',
    num_images: 'number',
    num_inference_steps: 'number',
    output_format: ['jpeg', 'png'],
    prompt: req('string'),
    seed: 'number',
    sync_mode: 'boolean',
  },
  'fal-ai/flux-pro/kontext': {
    aspect_ratio: ['21:9', '16:9', '4:3', '3:2', '1:1', '2:3', '3:4', '9:16', '9:21'],
    enhance_prompt: 'boolean',
    guidance_scale: 'number',
    image_url: req('file'),
    num_images: 'number',
    output_format: ['jpeg', 'png'],
    prompt: req('string'),
    safety_tolerance: ['1', '2', '3', '4', '5', '6'],
    seed: 'number',
    sync_mode: 'boolean',
  },
  'fal-ai/flux/dev/image-to-image': {
    acceleration: ['none', 'regular', 'high'],
    enable_safety_checker: 'boolean',
    guidance_scale: 'number',
    image_url: req('file'),
    num_images: 'number',
    num_inference_steps: 'number',
    output_format: ['jpeg', 'png'],
    prompt: req('string'),
    seed: 'number',
    strength: 'number',
    sync_mode: 'boolean',
  },
  'fal-ai/clarity-upscaler': {
    creativity: 'number',
    enable_safety_checker: 'boolean',
    guidance_scale: 'number',
    image_url: req('file'),
    negative_prompt: 'string',
    num_inference_steps: 'number',
    prompt: 'string',
    resemblance: 'number',
    seed: 'number',
    upscale_factor: 'number',
  },
  'fal-ai/esrgan': {
    face: 'boolean',
    image_url: req('file'),
    model: [
      'RealESRGAN_x4plus',
      'RealESRGAN_x2plus',
      'RealESRGAN_x4plus_anime_6B',
      'RealESRGAN_x4_v3',
      'RealESRGAN_x4_wdn_v3',
      'RealESRGAN_x4_anime_v3',
    ],
    output_format: ['png', 'jpeg'],
    scale: 'number',
    tile: 'number',
  },
  'fal-ai/kling-video/v2.1/master/text-to-video': {
    aspect_ratio: ['16:9', '9:16', '1:1'],
    cfg_scale: 'number',
    duration: ['5', '10'],
    negative_prompt: 'string',
    prompt: req('string'),
  },
  'fal-ai/kling-video/v2.1/master/image-to-video': {
    cfg_scale: 'number',
    duration: ['5', '10'],
    image_url: req('file'),
    negative_prompt: 'string',
    prompt: req('string'),
  },
  'fal-ai/minimax/hailuo-02/standard/text-to-video': {
    duration: ['6', '10'],
    prompt: req('string'),
    prompt_optimizer: 'boolean',
  },
  'fal-ai/minimax/hailuo-02/standard/image-to-video': {
    duration: ['6', '10'],
    end_image_url: 'file',
    image_url: req('file'),
    prompt: req('string'),
    prompt_optimizer: 'boolean',
    resolution: ['512P', '768P'],
  },
  'fal-ai/luma-dream-machine/ray-2': {
    aspect_ratio: ['16:9', '9:16', '4:3', '3:4', '21:9', '9:21'],
    duration: ['5s', '9s'],
    loop: 'boolean',
    prompt: req('string'),
    resolution: ['540p', '720p', '1080p'],
  },
  'fal-ai/luma-dream-machine/ray-2/image-to-video': {
    aspect_ratio: ['16:9', '9:16', '4:3', '3:4', '21:9', '9:21'],
    duration: ['5s', '9s'],
    end_image_url: 'file',
    image_url: 'file',
    loop: 'boolean',
    prompt: req('string'),
    resolution: ['540p', '720p', '1080p'],
  },
  'fal-ai/wan/v2.2-a14b/text-to-video': {
    acceleration: ['none', 'regular'],
    adjust_fps_for_interpolation: 'boolean',
    aspect_ratio: ['16:9', '9:16', '1:1'],
    enable_output_safety_checker: 'boolean',
    enable_prompt_expansion: 'boolean',
    enable_safety_checker: 'boolean',
    frames_per_second: 'number',
    guidance_scale: 'number',
    guidance_scale_2: 'number',
    interpolator_model: ['none', 'film', 'rife'],
    negative_prompt: 'string',
    num_frames: 'number',
    num_inference_steps: 'number',
    num_interpolated_frames: 'number',
    prompt: req('string'),
    resolution: ['480p', '580p', '720p'],
    seed: 'number',
    shift: 'number',
    video_quality: ['low', 'medium', 'high', 'maximum'],
    video_write_mode: ['fast', 'balanced', 'small'],
  },
  'fal-ai/pixverse/v4.5/text-to-video': {
    aspect_ratio: ['16:9', '4:3', '1:1', '3:4', '9:16'],
    duration: ['5', '8'],
    negative_prompt: 'string',
    prompt: req('string'),
    resolution: ['360p', '540p', '720p', '1080p'],
    seed: 'number',
    style: ['anime', '3d_animation', 'clay', 'comic', 'cyberpunk'],
  },
  'fal-ai/pixverse/v4.5/image-to-video': {
    camera_movement: [
      'horizontal_left',
      'horizontal_right',
      'vertical_up',
      'vertical_down',
      'zoom_in',
      'zoom_out',
      'crane_up',
      'quickly_zoom_in',
      'quickly_zoom_out',
      'smooth_zoom_in',
      'camera_rotation',
      'robo_arm',
      'super_dolly_out',
      'whip_pan',
      'hitchcock',
      'left_follow',
      'right_follow',
      'pan_left',
      'pan_right',
      'fix_bg',
    ],
    duration: ['5', '8'],
    image_url: req('file'),
    negative_prompt: 'string',
    prompt: req('string'),
    resolution: ['360p', '540p', '720p', '1080p'],
    seed: 'number',
    style: ['anime', '3d_animation', 'clay', 'comic', 'cyberpunk'],
  },
  'fal-ai/sync-lipsync/v2': {
    audio_url: req('file'),
    model: ['lipsync-2', 'lipsync-2-pro'],
    sync_mode: ['cut_off', 'loop', 'bounce', 'silence', 'remap'],
    video_url: req('file'),
  },
  'fal-ai/bytedance/omnihuman': { audio_url: req('file'), image_url: req('file') },
  'fal-ai/topaz/upscale/video': {
    compression: 'number',
    grain: 'number',
    H264_output: 'boolean',
    halo: 'number',
    model: [
      'Proteus',
      'Artemis HQ',
      'Artemis MQ',
      'Artemis LQ',
      'Gaia HQ',
      'Gaia CG',
      'Gaia 2',
      'Nyx',
      'Nyx Fast',
      'Nyx XL',
      'Nyx HF',
      'Starlight Precise 2.5',
      'Starlight HQ',
      'Starlight Mini',
      'Starlight Sharp',
      'Starlight Fast 2',
      'Starlight Precise 1',
      'Starlight Precise 2',
      'Starlight Fast 1',
    ],
    noise: 'number',
    recover_detail: 'number',
    target_fps: 'number',
    upscale_factor: 'number',
    video_url: req('file'),
  },
  'fal-ai/kokoro/american-english': {
    prompt: 'string',
    speed: 'number',
    voice: [
      'af_heart',
      'af_alloy',
      'af_aoede',
      'af_bella',
      'af_jessica',
      'af_kore',
      'af_nicole',
      'af_nova',
      'af_river',
      'af_sarah',
      'af_sky',
      'am_adam',
      'am_echo',
      'am_eric',
      'am_fenrir',
      'am_liam',
      'am_michael',
      'am_onyx',
      'am_puck',
      'am_santa',
    ],
  },
  'fal-ai/minimax/speech-02-hd': {
    language_boost: [
      'Chinese',
      'Chinese,Yue',
      'English',
      'Arabic',
      'Russian',
      'Spanish',
      'French',
      'Portuguese',
      'German',
      'Turkish',
      'Dutch',
      'Ukrainian',
      'Vietnamese',
      'Indonesian',
      'Japanese',
      'Italian',
      'Korean',
      'Thai',
      'Polish',
      'Romanian',
      'Greek',
      'Czech',
      'Finnish',
      'Hindi',
      'Bulgarian',
      'Danish',
      'Hebrew',
      'Malay',
      'Slovak',
      'Swedish',
      'Croatian',
      'Hungarian',
      'Norwegian',
      'Slovenian',
      'Catalan',
      'Nynorsk',
      'Afrikaans',
      'auto',
    ],
    output_format: ['url', 'hex'],
    text: req('string'),
  },
  'fal-ai/stable-audio': {
    prompt: req('string'),
    seconds_start: 'number',
    seconds_total: 'number',
    steps: 'number',
  },
  'fal-ai/lyria2': { negative_prompt: 'string', prompt: req('string'), seed: 'number' },
  'fal-ai/minimax-music/v1.5': { lyrics_prompt: req('string'), prompt: req('string') },
  'fal-ai/wizper': {
    audio_url: req('file'),
    chunk_level: 'string',
    language: [
      'af',
      'am',
      'ar',
      'as',
      'az',
      'ba',
      'be',
      'bg',
      'bn',
      'bo',
      'br',
      'bs',
      'ca',
      'cs',
      'cy',
      'da',
      'de',
      'el',
      'en',
      'es',
      'et',
      'eu',
      'fa',
      'fi',
      'fo',
      'fr',
      'gl',
      'gu',
      'ha',
      'haw',
      'he',
      'hi',
      'hr',
      'ht',
      'hu',
      'hy',
      'id',
      'is',
      'it',
      'ja',
      'jw',
      'ka',
      'kk',
      'km',
      'kn',
      'ko',
      'la',
      'lb',
      'ln',
      'lo',
      'lt',
      'lv',
      'mg',
      'mi',
      'mk',
      'ml',
      'mn',
      'mr',
      'ms',
      'mt',
      'my',
      'ne',
      'nl',
      'nn',
      'no',
      'oc',
      'pa',
      'pl',
      'ps',
      'pt',
      'ro',
      'ru',
      'sa',
      'sd',
      'si',
      'sk',
      'sl',
      'sn',
      'so',
      'sq',
      'sr',
      'su',
      'sv',
      'sw',
      'ta',
      'te',
      'tg',
      'th',
      'tk',
      'tl',
      'tr',
      'tt',
      'uk',
      'ur',
      'uz',
      'vi',
      'yi',
      'yo',
      'zh',
    ],
    max_segment_len: 'number',
    merge_chunks: 'boolean',
    task: ['transcribe', 'translate'],
    version: 'string',
  },
  // fal.ai/models/fal-ai/recraft-v3/api (its stored copy ends at the calling example); the Recraft family's
  // inputs as fal lists them for recraft-20b and recraft/v3/image-to-image (llms.txt): prompt, image_size,
  // style (a long enum, checked as a string here).
  'fal-ai/recraft-v3': { prompt: req('string'), image_size: 'image_size', style: 'string' },
  // No stored schema for fal-ai/imagen4/preview (searched fal's model pages, llms.txt and fal-js/fal-rs
  // types); fal's endpoint list no longer carries it and the catalog has it retired: any input is accepted.
  'fal-ai/imagen4/preview': null,
  // fal.ai/models/fal-ai/veo3/llms.txt (and fal-ai/veo3/image-to-video/llms.txt, whose aspect_ratio adds
  // "auto"); the listing seen ends at `resolution`, whose options it cut off.
  'fal-ai/veo3': {
    prompt: req('string'),
    aspect_ratio: ['16:9', '9:16'],
    duration: ['4s', '6s', '8s'],
    negative_prompt: 'string',
    resolution: 'string',
  },
  'fal-ai/veo3/image-to-video': {
    prompt: req('string'),
    image_url: 'file',
    aspect_ratio: ['auto', '16:9', '9:16'],
    duration: ['4s', '6s', '8s'],
    negative_prompt: 'string',
    resolution: 'string',
  },
  // fal.ai/models/fal-ai/veo3.1/llms.txt (fal.ai/docs/model-api-reference/video-generation-api/veo3.1):
  // aspect_ratio 16:9 | 9:16, duration 4s | 6s | 8s.
  'fal-ai/veo3.1': {
    prompt: req('string'),
    aspect_ratio: ['16:9', '9:16'],
    duration: ['4s', '6s', '8s'],
    negative_prompt: 'string',
    resolution: 'string',
  },
  // No stored schema for fal-ai/veo3.1/image-to-video (searched fal's model pages and llms.txt): known, any
  // input accepted.
  'fal-ai/veo3.1/image-to-video': null,
  // fal.ai/models/fal-ai/wan/v2.2-a14b/image-to-video/llms.txt: image_url and prompt required, num_frames
  // 17..161 (inclusive; checked as a number).
  'fal-ai/wan/v2.2-a14b/image-to-video': {
    image_url: req('file'),
    prompt: req('string'),
    num_frames: 'number',
  },
  // fal.ai/models/fal-ai/whisper/llms.txt: audio_url required, task transcribe | translate, language an
  // enum of codes (checked as a string; the listing seen is cut off after it).
  'fal-ai/whisper': { audio_url: req('file'), task: ['transcribe', 'translate'], language: 'string' },
};
// The FLUX family's image_size: a preset name or { width, height }.
for (const id of [
  'fal-ai/flux/schnell',
  'fal-ai/flux/dev',
  'fal-ai/flux-pro/v1.1',
  'fal-ai/stable-diffusion-v35-large',
  'fal-ai/hidream-i1-full',
  'fal-ai/flux/dev/image-to-image',
]) {
  const schema = MODELS[id];
  if (schema) schema.image_size = 'image_size';
}

/** Whether fal serves `modelId` (an unknown one answers 404 at submit). */
export const falServesModel = (modelId: string): boolean => Object.hasOwn(MODELS, modelId);

/** Problems with `input` for `modelId`, as fal's 422 `detail` entries. */
export function falValidationErrors(
  modelId: string,
  input: unknown,
): { loc: string[]; msg: string; type: string }[] {
  const schema = MODELS[modelId];
  if (!schema) return [];
  const body = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
  const errors: { loc: string[]; msg: string; type: string }[] = [];
  for (const [name, declared] of Object.entries(schema)) {
    const required = typeof declared === 'object' && 'required' in declared;
    const field = required ? (declared as { required: Field }).required : declared;
    const value = body[name];
    const loc = ['body', name];
    if (value === undefined) {
      if (required) errors.push({ loc, msg: 'Field required', type: 'missing' });
      continue;
    }
    if (Array.isArray(field)) {
      if (!field.includes(value as string)) {
        errors.push({
          loc,
          msg: `Input should be ${field.map((v) => `'${v}'`).join(', ')}`,
          type: 'literal_error',
        });
      }
    } else if (field === 'file' || field === 'string') {
      if (typeof value !== 'string')
        errors.push({ loc, msg: 'Input should be a valid string', type: 'string_type' });
    } else if (field === 'number') {
      if (typeof value !== 'number')
        errors.push({ loc, msg: 'Input should be a valid number', type: 'float_type' });
    } else if (field === 'boolean') {
      if (typeof value !== 'boolean')
        errors.push({ loc, msg: 'Input should be a valid boolean', type: 'bool_type' });
    } else if (field === 'image_size') {
      const sized = typeof value === 'object' && value !== null && 'width' in value && 'height' in value;
      if (!sized && !IMAGE_SIZES.includes(value as string)) {
        errors.push({
          loc,
          msg: `Input should be ${IMAGE_SIZES.join(', ')} or { width, height }`,
          type: 'literal_error',
        });
      }
    }
  }
  return errors;
}

/** The documented rule, written out independently of the adapter: owner and app, without the sub-path. */
const appOf = (modelId: string) => {
  const parts = modelId.split('/');
  return parts.slice(0, parts[0] === 'workflows' || parts[0] === 'comfy' ? 3 : 2).join('/');
};

export interface FalRequestState {
  id: string;
  modelId: string;
  input: unknown;
  polls: number;
  cancelled: boolean;
  webhook: string | null;
  createdAt: number;
  /** When the request finished (its result is kept from then). */
  completedAt: number | null;
  running: boolean;
  /** The model's answer, computed once at completion (so its size decides how long it is kept). */
  result?: { status: number; body: unknown; headers?: Record<string, string> };
  webhookSent: boolean;
}

export interface FalBehaviour extends StandInKnobs {
  /** Status answers before COMPLETED: the first is IN_QUEUE, the others IN_PROGRESS. */
  pollsBeforeDone: number;
  /** Or finish this long after the submit, without polls (for webhooks); null: polls only. */
  finishAfterMs: number | null;
  /** Stay IN_PROGRESS for ever (to cancel mid-run). */
  neverFinish: boolean;
  /** Requests IN_PROGRESS at once; the others wait IN_QUEUE (null: no limit). */
  concurrency: number | null;
  /** Answer the next submits 429 with this Retry-After (seconds). */
  rateLimitSubmits: number;
  retryAfter: string;
  /** The next N submits answer this request error (detail + error_type, X-Fal-Error-Type). */
  requestErrors: number;
  requestError: { status: number; errorType: string; detail: string };
  /** Requests refused by the content checker: their result is fal's 422 content_policy_violation. */
  contentPolicy: boolean;
  /** The model's answer for a finished request. */
  result: (origin: string, request: FalRequestState) => unknown;
  /** The result endpoint answers this instead (a model's own error). */
  failure: { status: number; detail: unknown } | null;
  /** fal is away: every call is received, then its connection closed without an answer. */
  unreachable: boolean;
}

export interface FalProtocolServer {
  url: string;
  /** The JWKS URL (FAL_JWKS_URL). */
  jwksUrl: string;
  key: string;
  /** The user id fal puts in webhook signatures. */
  userId: string;
  received: ReceivedRequest[];
  behaviour: FalBehaviour;
  requests: Map<string, FalRequestState>;
  /** Output files served at `{url}/files/{name}`. */
  files: Map<string, StoredFile>;
  /** Uploads to the storage, by the file name in their file_url. */
  uploads: Map<string, ReceivedUpload>;
  /** Moves the stand-in's clock (result expiry) by `ms`. */
  advance(ms: number): void;
  /** A signed webhook delivery for a finished request, as fal sends it (headers and raw body). */
  webhookFor(id: string, timestampSeconds?: number): { headers: Headers; body: Buffer };
  close(): Promise<void>;
}

const KEPT_MS = 60 * 60_000;
const KEPT_LARGE_MS = 6 * 60_000;
const LARGE_BYTES = 10 * 1024;
const MAX_JSON_BYTES = 10 * 1024 * 1024;

export const defaultFalBehaviour = (): FalBehaviour => ({
  latencyMs: 0,
  dropAfterAccept: 0,
  failDownloads: 0,
  unreachable: false,
  pollsBeforeDone: 2,
  finishAfterMs: null,
  neverFinish: false,
  concurrency: null,
  rateLimitSubmits: 0,
  retryAfter: '0',
  requestErrors: 0,
  requestError: {
    status: 503,
    errorType: 'runner_scheduling_failure',
    detail: 'No runner could be allocated.',
  },
  contentPolicy: false,
  result: (origin) => ({ images: [{ url: `${origin}/files/out.png`, content_type: 'image/png' }] }),
  failure: null,
});

export async function startFalProtocolServer(key: string, port = 0): Promise<FalProtocolServer> {
  const requests = new Map<string, FalRequestState>();
  const files = new Map<string, StoredFile>();
  const uploads = new Map<string, ReceivedUpload>();
  const received: ReceivedRequest[] = [];
  const behaviour = defaultFalBehaviour();
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const userId = 'stand-in-user';
  let offset = 0;
  const now = () => Date.now() + offset;
  let counter = 0;
  let running = 0;
  const pendingUploads = new Map<string, { name: string; contentType: string; parts: number }>();

  const urlsOf = (origin: string, request: FalRequestState) => {
    const base = `${origin}/${appOf(request.modelId)}/requests/${request.id}`;
    return { response_url: base, status_url: `${base}/status`, cancel_url: `${base}/cancel` };
  };

  function finish(origin: string, request: FalRequestState) {
    if (request.completedAt !== null) return;
    request.completedAt = now();
    if (request.running) running--;
    request.running = false;
    const errors = falValidationErrors(request.modelId, request.input);
    if (behaviour.contentPolicy) {
      const prompt = (request.input as { prompt?: unknown } | undefined)?.prompt;
      request.result = {
        status: 422,
        body: {
          detail: [
            {
              loc: ['body', 'prompt'],
              msg: 'The content could not be processed because it contained material flagged by a content checker.',
              type: 'content_policy_violation',
              url: 'https://docs.fal.ai/errors#content_policy_violation',
              input: prompt,
            },
          ],
        },
        headers: { 'x-fal-retryable': 'false' },
      };
    } else if (errors.length) {
      request.result = { status: 422, body: { detail: errors }, headers: { 'x-fal-retryable': 'false' } };
    } else if (behaviour.failure) {
      request.result = { status: behaviour.failure.status, body: { detail: behaviour.failure.detail } };
    } else {
      request.result = { status: 200, body: behaviour.result(origin, request) };
    }
  }

  /** Whether a request is done by now, promoting queued ones while the concurrency allows. */
  function advanceRequest(origin: string, request: FalRequestState) {
    if (request.completedAt !== null || request.cancelled) return;
    if (!request.running) {
      if (behaviour.concurrency !== null && running >= behaviour.concurrency) return;
      // The first status answer is IN_QUEUE; a request that is due anyway starts at once.
      const due = request.polls > behaviour.pollsBeforeDone;
      if (request.polls >= 2 || due || behaviour.neverFinish || behaviour.finishAfterMs !== null) {
        request.running = true;
        running++;
      }
    }
    const byPolls = request.polls > behaviour.pollsBeforeDone;
    const byTime = behaviour.finishAfterMs !== null && now() - request.createdAt >= behaviour.finishAfterMs;
    // neverFinish: running for ever (to cancel mid-run).
    if (request.running && !behaviour.neverFinish && (byPolls || byTime)) finish(origin, request);
  }

  function expired(request: FalRequestState): boolean {
    if (request.completedAt === null || !request.result) return false;
    const size = Buffer.byteLength(JSON.stringify(request.result.body));
    return now() - request.completedAt > (size >= LARGE_BYTES ? KEPT_LARGE_MS : KEPT_MS);
  }

  function webhookFor(id: string, timestampSeconds = Math.floor(Date.now() / 1000)) {
    const request = requests.get(id);
    if (!request?.result) throw new Error(`request ${id} has not finished`);
    const ok = request.result.status < 400;
    const body = Buffer.from(
      JSON.stringify({
        request_id: id,
        gateway_request_id: id,
        status: ok ? 'OK' : 'ERROR',
        payload: request.result.body,
        ...(ok ? {} : { error: `Invalid status code: ${request.result.status}` }),
      }),
    );
    const timestamp = String(timestampSeconds);
    const digest = createHash('sha256').update(body).digest('hex');
    const signature = sign(
      null,
      Buffer.from(`${id}\n${userId}\n${timestamp}\n${digest}`),
      privateKey as KeyObject,
    );
    const headers = new Headers({
      'content-type': 'application/json',
      'x-fal-webhook-request-id': id,
      'x-fal-webhook-user-id': userId,
      'x-fal-webhook-timestamp': timestamp,
      'x-fal-webhook-signature': signature.toString('hex'),
    });
    return { headers, body };
  }

  // One sweep for every request with a webhook (no timer per job): finishes the due ones and delivers.
  const sweep = setInterval(() => {
    for (const request of requests.values()) {
      if (!request.webhook || request.webhookSent) continue;
      advanceRequest(listening.origin, request);
      if (request.completedAt === null) continue;
      request.webhookSent = true;
      const { headers, body } = webhookFor(request.id);
      fetch(request.webhook, { method: 'POST', headers, body }).catch(() => {});
    }
  }, 100);
  sweep.unref();

  const listening = await listen(async (req, res, origin) => {
    const url = new URL(req.url ?? '/', origin);
    const path = url.pathname;

    if (req.method === 'GET' && path === '/.well-known/jwks.json') {
      const jwk = publicKey.export({ format: 'jwk' });
      return sendJson(res, 200, { keys: [{ ...jwk, kid: 'stand-in', use: 'sig', alg: 'EdDSA' }] });
    }
    if (behaviour.unreachable) {
      received.push(receivedOf(req, origin, undefined));
      return void res.destroy();
    }
    if (path.startsWith('/files/')) {
      received.push(receivedOf(req, origin, undefined));
      if (behaviour.failDownloads > 0) {
        behaviour.failDownloads--;
        return sendJson(res, 503, { detail: 'Service Unavailable' });
      }
      const file = files.get(decodeURIComponent(path.slice('/files/'.length)));
      if (!file) return sendJson(res, 404, { detail: 'Not Found' });
      res.writeHead(200, { 'content-type': file.contentType, 'content-length': file.body.length });
      return void res.end(file.body);
    }
    // Signed upload URLs: no key, the token in the path is the permission.
    const single = /^\/upload\/([\w-]+)$/.exec(path);
    const part = /^\/multipart\/([\w-]+)\/(\d+|complete)$/.exec(path);
    if ((single && req.method === 'PUT') || part) {
      const token = (single ?? part)?.[1] ?? '';
      const pending = pendingUploads.get(token);
      if (!pending) return sendJson(res, 404, { detail: 'Upload not found' });
      if (single) {
        received.push(receivedOf(req, origin, undefined));
        uploads.set(pending.name, await countUpload(req, pending.contentType));
        pendingUploads.delete(token);
        return sendJson(res, 200, {});
      }
      if (part?.[2] === 'complete') {
        const body = (await readJson(req, MAX_JSON_BYTES)) as { parts?: unknown[] } | undefined;
        received.push(receivedOf(req, origin, body));
        const upload = uploads.get(pending.name);
        if (!upload || body?.parts?.length !== pending.parts) {
          return sendJson(res, 400, { detail: 'Parts do not match the upload' });
        }
        pendingUploads.delete(token);
        return sendJson(res, 200, {});
      }
      received.push(receivedOf(req, origin, undefined));
      const counted = await countUpload(req, pending.contentType);
      const sofar = uploads.get(pending.name);
      uploads.set(
        pending.name,
        sofar
          ? {
              ...sofar,
              bytes: sofar.bytes + counted.bytes,
              chunks: sofar.chunks + counted.chunks,
              largestChunk: Math.max(sofar.largestChunk, counted.largestChunk),
              sha256: '',
            }
          : { ...counted, sha256: '' },
      );
      pending.parts++;
      return sendJson(res, 200, { partNumber: Number(part?.[2]), etag: `"etag-${part?.[2]}"` });
    }

    let body: unknown;
    try {
      body = await readJson(req, MAX_JSON_BYTES);
    } catch (error) {
      if (error instanceof BodyTooLarge) {
        sendJson(res, 413, { detail: 'Request body too large' });
        req.destroy();
      }
      throw error;
    }
    received.push(receivedOf(req, origin, body));
    await latency(req, behaviour);
    if (req.headers.authorization !== `Key ${key}`) {
      return sendJson(res, 401, { detail: 'No user found for Key ID and Secret' });
    }

    const initiate = /^\/storage\/upload\/(initiate|initiate-multipart)$/.exec(path);
    if (initiate && req.method === 'POST') {
      const { content_type: contentType, file_name: fileName } = (body ?? {}) as Record<string, unknown>;
      if (typeof fileName !== 'string' || !fileName) {
        return sendJson(res, 422, {
          detail: [{ loc: ['body', 'file_name'], msg: 'Field required', type: 'missing' }],
        });
      }
      const token = crypto.randomUUID();
      const name = `${token.slice(0, 8)}-${fileName.replace(/[^\w.-]/g, '_')}`;
      pendingUploads.set(token, {
        name,
        contentType: String(contentType ?? 'application/octet-stream'),
        parts: 0,
      });
      const uploadPath = initiate[1] === 'initiate' ? `upload/${token}` : `multipart/${token}`;
      return sendJson(res, 200, {
        upload_url: `${origin}/${uploadPath}?signature=stand-in`,
        file_url: `${origin}/files/${name}`,
      });
    }

    const match = /^\/(.+)\/requests\/([^/]+)(\/status|\/cancel)?$/.exec(path);
    if (!match) {
      if (req.method !== 'POST') return sendJson(res, 405, { detail: 'Method Not Allowed' });
      const modelId = path.slice(1);
      if (!Object.hasOwn(MODELS, modelId)) {
        return sendJson(res, 404, { detail: `Application '${appOf(modelId)}' not found` });
      }
      if (behaviour.rateLimitSubmits > 0) {
        behaviour.rateLimitSubmits--;
        return sendJson(
          res,
          429,
          { detail: 'Too many requests: concurrency limit reached' },
          { 'retry-after': behaviour.retryAfter },
        );
      }
      if (behaviour.requestErrors > 0) {
        behaviour.requestErrors--;
        const { status, errorType, detail } = behaviour.requestError;
        return sendJson(res, status, { detail, error_type: errorType }, { 'x-fal-error-type': errorType });
      }
      counter++;
      const request: FalRequestState = {
        id: `req-${counter}`,
        modelId,
        input: body,
        polls: 0,
        cancelled: false,
        webhook: url.searchParams.get('fal_webhook'),
        createdAt: now(),
        completedAt: null,
        running: false,
        webhookSent: false,
      };
      requests.set(request.id, request);
      if (behaviour.dropAfterAccept > 0) {
        behaviour.dropAfterAccept--;
        return void res.destroy();
      }
      const queued = [...requests.values()].filter((r) => r.completedAt === null && !r.running).length;
      return sendJson(res, 200, {
        status: 'IN_QUEUE',
        request_id: request.id,
        gateway_request_id: request.id,
        ...urlsOf(origin, request),
        queue_position: queued - 1,
      });
    }
    const [, app, id = '', action] = match;
    const request = requests.get(id);
    // Status, result and cancel live under the app path only: a sub-path there is not found.
    if (!request || appOf(request.modelId) !== app || expired(request)) {
      return sendJson(res, 404, { detail: 'Request not found' });
    }
    const urls = urlsOf(origin, request);
    if (action === '/cancel') {
      if (req.method !== 'PUT') return sendJson(res, 405, { detail: 'Method Not Allowed' });
      if (request.completedAt !== null) return sendJson(res, 400, { status: 'ALREADY_COMPLETED' });
      request.cancelled = true;
      return sendJson(res, 202, { status: 'CANCELLATION_REQUESTED' });
    }
    const wantLogs = url.searchParams.get('logs') === '1';
    if (action === '/status') {
      request.polls++;
      advanceRequest(origin, request);
      const logs = [
        { message: 'Loading model', level: 'INFO', source: 'USER', timestamp: new Date(now()).toISOString() },
      ];
      if (request.completedAt === null) {
        if (!request.running) {
          const ahead = [...requests.values()].filter(
            (r) => r.completedAt === null && !r.running && !r.cancelled && r.createdAt < request.createdAt,
          ).length;
          return sendJson(res, 202, {
            status: 'IN_QUEUE',
            request_id: id,
            ...urls,
            queue_position: behaviour.concurrency === null ? 3 : ahead,
          });
        }
        const progress = { message: ' 40%|████      | 8/20 [00:02<00:03]', level: 'INFO', source: 'USER' };
        return sendJson(res, 202, {
          status: 'IN_PROGRESS',
          request_id: id,
          ...urls,
          logs: wantLogs ? [...logs, progress] : null,
        });
      }
      return sendJson(res, 200, {
        status: 'COMPLETED',
        request_id: id,
        ...urls,
        logs: wantLogs ? logs : null,
        metrics: { inference_time: 1.5 },
      });
    }
    if (request.completedAt === null || !request.result) {
      return sendJson(res, 400, { detail: 'Request is still in progress' });
    }
    return sendJson(res, request.result.status, request.result.body, request.result.headers);
  }, port);

  return {
    url: listening.origin,
    jwksUrl: `${listening.origin}/.well-known/jwks.json`,
    key,
    userId,
    received,
    behaviour,
    requests,
    files,
    uploads,
    advance: (ms) => {
      offset += ms;
    },
    webhookFor,
    close: async () => {
      clearInterval(sweep);
      await listening.close();
    },
  };
}
