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
  // The others the catalog maps: schema not found in the docs: accepted as is.
  // stability-ai/stable-diffusion-3.5-large, ideogram-ai/ideogram-v3-turbo (its /api/schema page is stored
  // without the table), recraft-ai/recraft-v3, google/imagen-4, bytedance/seedream-3, minimax/video-01,
  // google/veo-3, google/veo-3.1, luma/ray-2-720p, wan-video/wan-2.2-i2v-fast, minimax/music-01,
  // minimax/speech-02-hd, and the community versions (meta/musicgen, jaaari/kokoro-82m, openai/whisper,
  // nightmareai/real-esrgan) run through POST /predictions.
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
      return {
        status: 200,
        json: {
          previous: null,
          next: from + 100 < all.length ? `${origin}/v1/predictions?cursor=${from + 100}` : null,
          results: page.map((p) => json(origin, p)),
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
      const invalid = invalidFields(SCHEMAS[model], body.input);
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
    if (prediction.status === 'canceled') return { status: 200, json: json(origin, prediction) };
    prediction.polls++;
    if (behaviour.neverFinish || prediction.polls <= behaviour.pollsBeforeDone) {
      prediction.status = prediction.polls === 1 && !behaviour.neverFinish ? 'starting' : 'processing';
      const logs =
        prediction.status === 'processing' ? 'Running predict()...\n 45%|████▌     | 9/20 [00:01<00:01]' : '';
      return { status: 200, json: json(origin, prediction, { logs }) };
    }
    if (behaviour.failure) {
      prediction.status = 'failed';
      return {
        status: 200,
        json: json(origin, prediction, { error: behaviour.failure, logs: 'Traceback ...' }),
      };
    }
    prediction.status = 'succeeded';
    return {
      status: 200,
      json: json(origin, prediction, {
        output: behaviour.output(origin, prediction),
        logs: '100%|██████████| 20/20',
        metrics: { predict_time: 2.5 },
      }),
    };
  });
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
