import { createHmac, randomBytes } from 'node:crypto';
import {
  type JsonServer,
  type Reply,
  type StoredFile,
  startJsonServer,
} from './fal-replicate-test-context.ts';
import { countUpload, type ReceivedUpload, sendJson } from './stand-in-http.ts';

/*
 * A local stand-in for Replicate's HTTP API under `/v1`, answering as its documentation shows: Bearer
 * auth (401 problem details otherwise), `POST /models/{owner}/{name}/predictions` and
 * `POST /predictions { version }` -> 201 prediction `starting`, then `processing` with logs, then
 * `succeeded` with `output` (or `failed` with `error`), `POST /predictions/{id}/cancel`, and 429
 * `{"detail": "Request was throttled..."}` with Retry-After. Output files are served under `/files`.
 * From the docs too (issue #26):
 * - Files API (replicate.com/docs/reference/http#files.create): POST /v1/files multipart with the bytes in
 *   `content` -> 201 { id, urls: { get } }; files over 100 MB answer 413 (input-files page: "up to 100MB").
 *   Uploads are counted as they stream in, never kept.
 * - Webhooks (replicate.com/docs/topics/webhooks/verify-webhook): GET /v1/webhooks/default/secret -> { key:
 *   "whsec_<base64>" }; a delivery is the prediction, signed `v1,<base64 HMAC-SHA256 of id.timestamp.body>`.
 * - GET /v1/predictions lists predictions newest first, { previous, next, results } (`next` a URL with a
 *   cursor), as replicate.com/docs/reference/http#predictions.list shows.
 * - Input validation for models whose schema is transcribed below (each model's API page,
 *   replicate.com/<owner>/<name>/api): a value outside a stated type, enum or range, or a field the page does
 *   not list (when it lists them all), answers 422 { title: "Input validation failed", detail, invalid_fields };
 *   a model that does not exist answers 404.
 * - A moderated prediction fails with the model's words in `error` (behaviour.failure).
 * Knobs: dropping the connection after accepting a create (the prediction exists), failing downloads.
 */

/** One input field's rule, as the model's OpenAPI schema states it (JSON-schema-like). */
interface FieldRule {
  type: 'string' | 'integer' | 'number' | 'boolean';
  enum?: readonly (string | number)[];
  minimum?: number;
  maximum?: number;
}
/**
 * A model's inputs. `closed`: the page listed every field, so an unknown one answers 422; otherwise
 * (a truncated listing) only the listed fields are checked.
 */
interface ModelSchema {
  closed: boolean;
  fields: Record<string, FieldRule>;
}
const str: FieldRule = { type: 'string' };
const int: FieldRule = { type: 'integer' };
const bool: FieldRule = { type: 'boolean' };
const range = (type: 'integer' | 'number', minimum?: number, maximum?: number): FieldRule => ({
  type,
  ...(minimum === undefined ? {} : { minimum }),
  ...(maximum === undefined ? {} : { maximum }),
});
const oneOf = (...values: string[]): FieldRule => ({
  type: 'string',
  enum: values,
});

/*
 * Official models' inputs, transcribed from their API pages (replicate.com/<owner>/<name>/api and the
 * version pages replicate.com/<owner>/<name>/versions/<id>/api). Where a page shows a field's type as
 * "None" (an enum whose options it does not list) only the name is checked, as a string.
 */
const SCHEMAS: Record<string, ModelSchema> = {
  // replicate.com/black-forest-labs/flux-schnell/api
  'black-forest-labs/flux-schnell': {
    closed: false,
    fields: {
      prompt: str,
      aspect_ratio: oneOf('1:1', '16:9', '21:9', '3:2', '2:3', '4:5', '5:4', '3:4', '4:3', '9:16', '9:21'),
      output_format: oneOf('webp', 'jpg', 'png'),
      megapixels: oneOf('1', '0.25'),
      num_outputs: int,
      seed: int,
      go_fast: bool,
    },
  },
  // replicate.com/black-forest-labs/flux-dev/versions/93d72f81bd019dde2bfcba9585a6f74e600b13a43a96eb01a42da54f5ab4df6a/api
  // (the listing seen ends at disable_safety_checker: not closed)
  'black-forest-labs/flux-dev': {
    closed: false,
    fields: {
      prompt: str,
      aspect_ratio: oneOf('1:1', '16:9', '21:9', '2:3', '3:2', '4:5', '5:4', '9:16', '9:21'),
      image: str,
      prompt_strength: range('number', undefined, 1),
      num_outputs: range('integer', 1, 4),
      num_inference_steps: range('integer', 1, 50),
      guidance: range('number', undefined, 10),
      seed: int,
      output_format: oneOf('webp', 'jpg', 'png'),
      output_quality: range('integer', undefined, 100),
      disable_safety_checker: bool,
    },
  },
  // replicate.com/black-forest-labs/flux-1.1-pro/versions/96ccd0e758a1796926584ded2246369cdf8eb3d7c34475cf9c442be5e097d926/api
  // (the listing seen ends at output_format, whose options it does not give: not closed)
  'black-forest-labs/flux-1.1-pro': {
    closed: false,
    fields: {
      prompt: str,
      image_prompt: str,
      aspect_ratio: str,
      width: range('integer', 256, 1440),
      height: range('integer', 256, 1440),
      safety_tolerance: range('integer', 1, 6),
      seed: int,
      prompt_upsampling: bool,
      output_format: str,
    },
  },
  // replicate.com/black-forest-labs/flux-kontext-pro/versions/0a1381936934845a14efcc9f309ce7d031cb905867878b5c5830280e00e97606/api
  'black-forest-labs/flux-kontext-pro': {
    closed: true,
    fields: {
      prompt: str,
      input_image: str,
      aspect_ratio: str,
      prompt_upsampling: bool,
      seed: int,
      output_format: str,
      safety_tolerance: range('integer', undefined, 6),
    },
  },
  // replicate.com/kwaivgi/kling-v2.1/versions/daad218feb714b03e2a1ac445986aebb9d05243cd00da2af17be2e4049f48f69/api
  // (`mode` and `duration` are enums whose options the page does not list; the README's 5|10 s is not a schema)
  'kwaivgi/kling-v2.1': {
    closed: true,
    fields: {
      mode: str,
      duration: range('integer'),
      prompt: str,
      end_image: str,
      start_image: str,
      negative_prompt: str,
    },
  },
  // replicate.com/bytedance/seedance-1-pro/versions/a5fd550893da3b6f67997812759065652454ddaca10e96b83b59cbae1814cb36/api
  'bytedance/seedance-1-pro': {
    closed: true,
    fields: {
      resolution: str,
      aspect_ratio: str,
      fps: range('integer'),
      seed: int,
      image: str,
      prompt: str,
      duration: range('integer', 2, 12),
      camera_fixed: bool,
      last_frame_image: str,
    },
  },
  // replicate.com/wan-video/wan-2.2-t2v-fast/versions/920bea47c60299896482c74ddd32df873d0e392a88a08595b3d4f56eaf47b6ef/api
  'wan-video/wan-2.2-t2v-fast': {
    closed: true,
    fields: {
      prompt: str,
      num_frames: range('integer', 81, 100),
      aspect_ratio: str,
      resolution: str,
      frames_per_second: range('integer', 5, 24),
      go_fast: bool,
      sample_shift: range('number', 1, 20),
      seed: int,
    },
  },
  // replicate.com/stability-ai/stable-diffusion-3.5-large/versions/feb36d70a9f2791ed9df99f795ea5684da18f52b5f6b488dfdef635ca19d6bd3/api
  // (a later version, 5f78b950, lists steps 1..10 and cfg up to 20 instead: only the fields both share
  // with the same rule are checked, and the table is not closed)
  'stability-ai/stable-diffusion-3.5-large': {
    closed: false,
    fields: {
      prompt: str,
      aspect_ratio: str,
      seed: int,
      output_format: str,
    },
  },
  // replicate.com/ideogram-ai/ideogram-v3-turbo: its API page is stored without the table. Its siblings'
  // pages (ideogram-v3-quality/versions/03944eb9.../api, ideogram-v3-balanced/versions/e78d8251.../api) give
  // the v3 family's inputs, with these enums; the same inputs appear in turbo's published examples.
  'ideogram-ai/ideogram-v3-turbo': {
    closed: false,
    fields: {
      prompt: str,
      aspect_ratio: oneOf(
        '1:3',
        '3:1',
        '1:2',
        '2:1',
        '9:16',
        '16:9',
        '10:16',
        '16:10',
        '2:3',
        '3:2',
        '3:4',
        '4:3',
        '4:5',
        '5:4',
        '1:1',
      ),
      magic_prompt_option: oneOf('Auto', 'On', 'Off'),
      style_type: oneOf('None', 'Auto', 'General', 'Realistic', 'Design'),
      image: str,
      mask: str,
      seed: range('integer', undefined, 2147483647),
    },
  },
  // replicate.com/recraft-ai/recraft-v3: no stored page with its table; the inputs of its example
  // (size, style, prompt, aspect_ratio, as republished at docs.kkiai.com .../create-task-recraft-v3) are
  // checked as strings, nothing more.
  'recraft-ai/recraft-v3': {
    closed: false,
    fields: { prompt: str, size: str, style: str, aspect_ratio: str },
  },
  // replicate.com/google/imagen-4: no stored page with its table; its inputs as republished (docs.kkiai.com
  // .../create-task-google-imagen-4: aspect ratios 1:1, 9:16, 16:9, 3:4, 4:3, and the three
  // safety_filter_level values the field description names).
  'google/imagen-4': {
    closed: false,
    fields: {
      prompt: str,
      aspect_ratio: oneOf('1:1', '9:16', '16:9', '3:4', '4:3'),
      output_format: str,
      safety_filter_level: oneOf('block_low_and_above', 'block_medium_and_above', 'block_only_high'),
    },
  },
  // replicate.com/bytedance/seedream-3/versions/ed344813bc9f4996be6de4febd8b9c14c7849ad7b21ab047572e3620ee374ee7/api
  'bytedance/seedream-3': {
    closed: true,
    fields: {
      prompt: str,
      aspect_ratio: str,
      size: str,
      seed: int,
      width: range('integer', 512, 2048),
      height: range('integer', 512, 2048),
      guidance_scale: range('number', 1, 10),
    },
  },
  // replicate.com/minimax/video-01/versions/c8bcc4751328608bb75043b3af7bed4eabcf1a6c0a478d50a4cf57fa04bd5101/api
  // (no duration, no seed, no resolution: a 6 s clip whose shape follows first_frame_image)
  'minimax/video-01': {
    closed: true,
    fields: { prompt: str, first_frame_image: str, subject_reference: str, prompt_optimizer: bool },
  },
  // replicate.com/google/veo-3: its own table was not found; google/veo-3-fast's
  // (versions/368d4063e21ecf73746b8e6d27989837d97ba07b5eca43a4e5488c852e10c2ec/api) is the same family.
  'google/veo-3': {
    closed: false,
    fields: {
      prompt: str,
      aspect_ratio: str,
      image: str,
      negative_prompt: str,
      resolution: str,
      generate_audio: bool,
      seed: int,
    },
  },
  // replicate.com/google/veo-3.1/versions/ed5b1767b711dd15d954b162af1e890d27882680f463a85e94f02d604012b972/api
  // (`duration`, `aspect_ratio` and `resolution` are enums the table does not spell out; the model's
  // republished listing, api.core.today/v1/models/google/veo-3.1/llms.txt, gives 4|6|8, 16:9|9:16, 720p|1080p)
  'google/veo-3.1': {
    closed: true,
    fields: {
      prompt: str,
      aspect_ratio: oneOf('16:9', '9:16'),
      duration: { type: 'integer', enum: [4, 6, 8] },
      image: str,
      last_frame: str,
      negative_prompt: str,
      resolution: oneOf('720p', '1080p'),
      generate_audio: bool,
      seed: int,
    },
  },
  // replicate.com/luma/ray-2-720p/versions/ead051be6edb5b64656749d27424af9baa66458c8c5cbf4c154c37a637e39da3/api
  // (`duration` and `aspect_ratio` are enums whose options the table does not list: types only)
  'luma/ray-2-720p': {
    closed: false,
    fields: {
      prompt: str,
      start_image_url: str,
      end_image_url: str,
      duration: int,
      aspect_ratio: str,
      loop: bool,
    },
  },
  // replicate.com/wan-video/wan-2.2-i2v-fast: no stored page with its table; a republished example
  // (segmind.com/models/wan-2.2-i2v-fast/api) sends t2v-fast's inputs plus `image` (and LoRA scales), so
  // t2v-fast's rules are applied to those fields, not closed.
  'wan-video/wan-2.2-i2v-fast': {
    closed: false,
    fields: {
      image: str,
      prompt: str,
      num_frames: range('integer', 81, 100),
      resolution: str,
      frames_per_second: range('integer', 5, 24),
      go_fast: bool,
      sample_shift: range('number', 1, 20),
      seed: int,
    },
  },
  // replicate.com/minimax/music-01/versions/0254c7e2f54315b667dbae03da7c155822ba29ffe0457be5bc246d564be486bd/api
  // (`lyrics`: "Maximum 350 to 400 characters"; no duration and no prompt; sample_rate and bitrate are
  // enums the table does not spell out)
  'minimax/music-01': {
    closed: true,
    fields: {
      lyrics: str,
      song_file: str,
      voice_file: str,
      instrumental_file: str,
      voice_id: str,
      instrumental_id: str,
      sample_rate: int,
      bitrate: int,
    },
  },
  // replicate.com/minimax/speech-02-turbo/versions/e2e8812b45eefa93b20990418480fe628ddce470f9b72909a175d65e288ff3d5/api,
  // the same inputs speech-02-hd's published example uses (its own table was not found)
  'minimax/speech-02-hd': {
    closed: false,
    fields: {
      text: str,
      voice_id: str,
      emotion: oneOf(
        'auto',
        'happy',
        'sad',
        'angry',
        'fearful',
        'disgusted',
        'surprised',
        'calm',
        'fluent',
        'neutral',
      ),
      pitch: range('integer', -12, 12),
      speed: range('number', 0.5, 2),
      volume: range('number', undefined, 10),
      language_boost: str,
      english_normalization: bool,
      sample_rate: int,
      bitrate: int,
      channel: oneOf('mono', 'stereo'),
      audio_format: oneOf('mp3', 'wav', 'flac', 'pcm'),
      subtitle_enable: bool,
    },
  },
};

/*
 * Community models run by version (POST /predictions { version }), keyed by the version id.
 */
const VERSION_SCHEMAS: Record<string, ModelSchema> = {
  // meta/musicgen:671ac645: the version's OpenAPI input schema, as nodetool generates its MusicGen node from
  // it (nodetool's replicate nodes, audio/generate.py: every field, so closed; no stated duration maximum).
  '671ac645ce5e552cc63a54a2bbff63fcf798043055d2dac5fc9e36a837eedcfb': {
    closed: true,
    fields: {
      prompt: str,
      input_audio: str,
      duration: int,
      seed: int,
      top_k: int,
      top_p: range('number'),
      temperature: range('number'),
      continuation: bool,
      continuation_start: range('integer', 0),
      continuation_end: range('integer', 0),
      model_version: oneOf('stereo-melody-large', 'stereo-large', 'melody-large', 'large'),
      output_format: oneOf('wav', 'mp3'),
      multi_band_diffusion: bool,
      normalization_strategy: oneOf('loudness', 'clip', 'peak', 'rms'),
      classifier_free_guidance: int,
    },
  },
  // jaaari/kokoro-82m:f559560e: the version's OpenAPI schema as republished with `version: f559560e...`
  // (api.market/store/magicapi/ai-text-to-speech-generator/openapi.yaml): text, voice (an enum of kokoro's
  // voice names), speed 0.1..5.
  f559560eb822dc509045f3921a1921234918b91739db4bf3daab2169b71c7a13: {
    closed: true,
    fields: { text: str, voice: str, speed: range('number', 0.1, 5) },
  },
  // replicate.com/openai/whisper/versions/8099696689d249cf8b122d833c36ac3f75505c666a395ca40ef26f68e7d3d16e/api
  // (the table continues past `language`: not closed; `language` takes codes and English names)
  '8099696689d249cf8b122d833c36ac3f75505c666a395ca40ef26f68e7d3d16e': {
    closed: false,
    fields: {
      audio: str,
      transcription: oneOf('plain text', 'srt', 'vtt'),
      translate: bool,
      language: str,
      temperature: range('number'),
      initial_prompt: str,
    },
  },
  // nightmareai/real-esrgan:f121d640: no stored version page; the model's inputs as republished
  // (eachlabs.ai/tencent/real-esrgan/real-esrgan/llms.txt): image, scale 0..10, face_enhance.
  f121d640bd286e1fdc67f9799164c1d5be36ff74576ee11c803ae5b665dd46aa: {
    closed: false,
    fields: { image: str, scale: range('number', 0, 10), face_enhance: bool },
  },
};
const UPLOAD_MAX_BYTES = 100 * 1024 * 1024;
/** Official models the catalog maps (replicate.com/collections/official). */
const KNOWN_OFFICIAL = new Set([
  'black-forest-labs/flux-schnell',
  'black-forest-labs/flux-dev',
  'black-forest-labs/flux-1.1-pro',
  'black-forest-labs/flux-kontext-pro',
  'stability-ai/stable-diffusion-3.5-large',
  'ideogram-ai/ideogram-v3-turbo',
  'recraft-ai/recraft-v3',
  'google/imagen-4',
  'bytedance/seedream-3',
  'minimax/video-01',
  'google/veo-3',
  'luma/ray-2-720p',
  'google/veo-3.1',
  'wan-video/wan-2.2-t2v-fast',
  'wan-video/wan-2.2-i2v-fast',
  'bytedance/seedance-1-pro',
  'kwaivgi/kling-v2.1',
  'minimax/music-01',
  'minimax/speech-02-hd',
]);

type InvalidField = { type: string; field: string; description: string };

/** The documented rules for a catalog id (`owner/name`, or `owner/name:<version>` for a community model). */
function schemaFor(modelId: string): ModelSchema | undefined {
  const [model = '', version] = modelId.split(':');
  return version ? VERSION_SCHEMAS[version] : SCHEMAS[model];
}

/**
 * What the stand-in would refuse in `input` for `modelId`, and whether the model's page lists every input
 * (`closed`): lets the catalog's offers be checked against the same rules without a round trip.
 */
export function replicateInputRules(modelId: string): {
  known: boolean;
  closed: boolean;
  fields: readonly string[];
  errors: (input: Record<string, unknown>) => InvalidField[];
} {
  const schema = schemaFor(modelId);
  return {
    known: schema !== undefined,
    closed: schema?.closed ?? false,
    fields: Object.keys(schema?.fields ?? {}),
    errors: (input) => invalidFields(schema, input),
  };
}

function invalidFields(schema: ModelSchema | undefined, input: unknown) {
  const fields: InvalidField[] = [];
  if (!schema || typeof input !== 'object' || input === null) return fields;
  for (const [field, value] of Object.entries(input)) {
    const rule = schema.fields[field];
    if (rule === undefined) {
      if (schema.closed)
        fields.push({
          type: 'additional_property_not_allowed',
          field,
          description: `Additional property ${field} is not allowed`,
        });
      continue;
    }
    const problem = checkRule(field, rule, value);
    if (problem) fields.push({ ...problem, field });
  }
  return fields;
}

function checkRule(field: string, rule: FieldRule, value: unknown): Omit<InvalidField, 'field'> | null {
  const typed =
    rule.type === 'integer'
      ? Number.isInteger(value)
      : rule.type === 'number'
        ? typeof value === 'number' && Number.isFinite(value)
        : typeof value === rule.type;
  if (!typed)
    return {
      type: 'invalid_type',
      description: `Invalid type. Expected: ${rule.type}`,
    };
  if (rule.enum && !rule.enum.includes(value as string | number)) {
    const list = rule.enum.map((v) => (typeof v === 'string' ? `"${v}"` : String(v))).join(', ');
    return {
      type: 'enum',
      description: `${field} must be one of the following: ${list}`,
    };
  }
  const n = value as number;
  if (rule.minimum !== undefined && n < rule.minimum)
    return {
      type: 'number_gte',
      description: `Must be greater than or equal to ${rule.minimum}`,
    };
  if (rule.maximum !== undefined && n > rule.maximum)
    return {
      type: 'number_lte',
      description: `Must be less than or equal to ${rule.maximum}`,
    };
  return null;
}

export interface Prediction {
  id: string;
  webhook?: string | null;
  createdAt?: string;
  model: string;
  version: string | null;
  input: unknown;
  polls: number;
  status: string;
}

export interface ReplicateBehaviour {
  /** Polls answered before `succeeded`: the first `starting`, the others `processing`. */
  pollsBeforeDone: number;
  neverFinish: boolean;
  rateLimitCreates: number;
  retryAfter: string;
  output: (origin: string, prediction: Prediction) => unknown;
  /** The prediction fails with this error instead. */
  failure: string | null;
  /** Close the connection without answering after accepting the next N creates. */
  dropAfterAccept: number;
  /** Answer the next N output downloads 503. */
  failDownloads: number;
}

export interface ReplicateProtocolServer extends JsonServer {
  /** The API base URL (with `/v1`). */
  apiUrl: string;
  /** Files uploaded, by id: counted, not kept. */
  uploads: Map<string, ReceivedUpload>;
  /** A signed webhook delivery of a prediction, as Replicate sends it. */
  webhookFor(id: string, timestampSeconds?: number): { headers: Headers; body: Buffer };
  behaviour: ReplicateBehaviour;
  predictions: Map<string, Prediction>;
  files: Map<string, StoredFile>;
}

export async function startReplicateProtocolServer(token: string): Promise<ReplicateProtocolServer> {
  const predictions = new Map<string, Prediction>();
  const files = new Map<string, StoredFile>();
  const behaviour: ReplicateBehaviour = {
    pollsBeforeDone: 2,
    neverFinish: false,
    rateLimitCreates: 0,
    retryAfter: '0',
    output: (origin) => [`${origin}/files/out.png`],
    failure: null,
    dropAfterAccept: 0,
    failDownloads: 0,
  };
  const uploads = new Map<string, ReceivedUpload>();
  const secret = `whsec_${randomBytes(24).toString('base64')}`;
  let counter = 0;

  const json = (origin: string, p: Prediction, extra: Record<string, unknown> = {}) => ({
    id: p.id,
    model: p.model,
    version: p.version ?? 'hidden',
    input: p.input,
    logs: '',
    output: null,
    data_removed: false,
    error: null,
    status: p.status,
    created_at: p.createdAt ?? '2025-01-01T00:00:00.000Z',
    webhook: p.webhook ?? null,
    urls: {
      get: `${origin}/v1/predictions/${p.id}`,
      cancel: `${origin}/v1/predictions/${p.id}/cancel`,
      stream: `${origin}/stream/${p.id}`,
    },
    ...extra,
  });

  const server = await startJsonServer((request, origin): Reply | 'drop' => {
    if (request.path.startsWith('/files/')) {
      if (behaviour.failDownloads > 0) {
        behaviour.failDownloads--;
        return { status: 503, json: { detail: 'Service Unavailable', status: 503 } };
      }
      const file = files.get(request.path.slice('/files/'.length));
      return file
        ? { status: 200, bytes: file.body, headers: { 'content-type': file.contentType } }
        : { status: 404, json: { detail: 'Not found.', status: 404 } };
    }
    if (request.headers.authorization !== `Bearer ${token}`) {
      return {
        status: 401,
        json: {
          title: 'Unauthenticated',
          detail: 'You did not pass a valid authentication token',
          status: 401,
        },
      };
    }
    if (request.method === 'GET' && request.path === '/v1/webhooks/default/secret') {
      return { status: 200, json: { key: secret } };
    }
    if (request.method === 'GET' && request.path === '/v1/predictions') {
      const all = [...predictions.values()].reverse();
      const from = Number(request.query.get('cursor') ?? 0);
      const page = all.slice(from, from + 100);
      // Predictions move on as time passes, whoever reads them: a listing advances them as a GET does.
      // The documented list entries carry status, output and error, but no logs.
      return {
        status: 200,
        json: {
          previous: null,
          next: from + 100 < all.length ? `${origin}/v1/predictions?cursor=${from + 100}` : null,
          results: page.map((p) => {
            const { logs: _logs, ...listed } = json(origin, p, readPrediction(origin, p));
            return listed;
          }),
        },
      };
    }
    const body = (request.body ?? {}) as { input?: unknown; version?: unknown; webhook?: unknown };
    const official = /^\/v1\/models\/([^/]+\/[^/]+)\/predictions$/.exec(request.path);
    if (request.method === 'POST' && (official || request.path === '/v1/predictions')) {
      if (behaviour.rateLimitCreates > 0) {
        behaviour.rateLimitCreates--;
        return {
          status: 429,
          json: { detail: 'Request was throttled. Your rate limit resets in ~1s.', status: 429 },
          headers: { 'retry-after': behaviour.retryAfter },
        };
      }
      if (!official && typeof body.version !== 'string') {
        return {
          status: 422,
          json: { title: 'Invalid version or not permitted', detail: 'version is required', status: 422 },
        };
      }
      const model = official?.[1] ?? 'community/model';
      if (official && !KNOWN_OFFICIAL.has(model)) {
        return {
          status: 404,
          json: { title: 'Not found', detail: 'The requested resource could not be found.', status: 404 },
        };
      }
      const invalid = invalidFields(
        official ? SCHEMAS[model] : VERSION_SCHEMAS[body.version as string],
        body.input,
      );
      if (invalid.length) {
        return {
          status: 422,
          json: {
            title: 'Input validation failed',
            detail: invalid.map((f) => `- input.${f.field}: ${f.description}`).join('\n'),
            status: 422,
            invalid_fields: invalid,
          },
        };
      }
      counter++;
      const prediction: Prediction = {
        id: `pred${counter}`,
        model,
        version: official ? null : (body.version as string),
        input: body.input,
        polls: 0,
        status: 'starting',
        webhook: typeof body.webhook === 'string' ? body.webhook : null,
        createdAt: new Date().toISOString(),
      };
      predictions.set(prediction.id, prediction);
      if (behaviour.dropAfterAccept > 0) {
        behaviour.dropAfterAccept--;
        return 'drop';
      }
      return { status: 201, json: json(origin, prediction) };
    }
    const match = /^\/v1\/predictions\/([^/]+)(\/cancel)?$/.exec(request.path);
    const prediction = match ? predictions.get(match[1] ?? '') : undefined;
    if (!match || !prediction)
      return { status: 404, json: { title: 'Not found', detail: 'Not found.', status: 404 } };
    if (match[2]) {
      if (request.method !== 'POST') return { status: 405, json: { detail: 'Method "GET" not allowed.' } };
      prediction.status = 'canceled';
      return { status: 200, json: json(origin, prediction) };
    }
    return { status: 200, json: json(origin, prediction, readPrediction(origin, prediction)) };
  });

  /** A read of a prediction moves it on (the stand-in's clock): starting, processing, then its end. */
  function readPrediction(origin: string, prediction: Prediction): Record<string, unknown> {
    if (prediction.status === 'canceled') return {};
    prediction.polls++;
    if (behaviour.neverFinish || prediction.polls <= behaviour.pollsBeforeDone) {
      prediction.status = prediction.polls === 1 && !behaviour.neverFinish ? 'starting' : 'processing';
      const logs =
        prediction.status === 'processing' ? 'Running predict()...\n 45%|████▌     | 9/20 [00:01<00:01]' : '';
      return { logs };
    }
    if (behaviour.failure) {
      prediction.status = 'failed';
      return { error: behaviour.failure, logs: 'Traceback ...' };
    }
    prediction.status = 'succeeded';
    return {
      output: behaviour.output(origin, prediction),
      logs: '100%|██████████| 20/20',
      metrics: { predict_time: 2.5 },
    };
  }
  // The Files API streams its bytes: served before the JSON server would read the body.
  server.intercept(async (req, res) => {
    if (req.method !== 'POST' || !req.url?.startsWith('/v1/files')) return false;
    if (req.headers.authorization !== `Bearer ${token}`) {
      sendJson(res, 401, {
        title: 'Unauthenticated',
        detail: 'You did not pass a valid authentication token',
        status: 401,
      });
      return true;
    }
    const length = Number(req.headers['content-length'] ?? 0);
    if (length > UPLOAD_MAX_BYTES) {
      sendJson(res, 413, {
        title: 'Request entity too large',
        detail: 'Files can be up to 100 MB',
        status: 413,
      });
      req.destroy();
      return true;
    }
    const upload = await countUpload(req, String(req.headers['content-type'] ?? ''));
    const id = `file${uploads.size + 1}`;
    uploads.set(id, upload);
    sendJson(res, 201, {
      id,
      size: upload.bytes,
      urls: { get: `${server.url}/v1/files/${id}` },
      created_at: new Date().toISOString(),
    });
    return true;
  });

  function webhookFor(id: string, timestampSeconds = Math.floor(Date.now() / 1000)) {
    const prediction = predictions.get(id);
    if (!prediction) throw new Error(`no prediction ${id}`);
    const body = Buffer.from(
      JSON.stringify(json(server.url, prediction, { output: behaviour.output(server.url, prediction) })),
    );
    const messageId = `msg_${id}`;
    const timestamp = String(timestampSeconds);
    const key = Buffer.from(secret.split('_').pop() ?? '', 'base64');
    const signature = createHmac('sha256', key)
      .update(`${messageId}.${timestamp}.`)
      .update(body)
      .digest('base64');
    const headers = new Headers({
      'content-type': 'application/json',
      'webhook-id': messageId,
      'webhook-timestamp': timestamp,
      'webhook-signature': `v1,${signature}`,
    });
    return { headers, body };
  }

  return { ...server, apiUrl: `${server.url}/v1`, behaviour, predictions, files, uploads, webhookFor };
}
