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
 *   replicate.com/<owner>/<name>/api): 422 { title: "Input validation failed", detail, invalid_fields };
 *   a model that does not exist answers 404.
 * - A moderated prediction fails with the model's words in `error` (behaviour.failure).
 * Knobs: dropping the connection after accepting a create (the prediction exists), failing downloads.
 */

/** Official models' inputs, as their API pages give them (replicate.com/<owner>/<name>/api). */
const SCHEMAS: Record<string, Record<string, readonly string[] | 'integer' | 'boolean' | 'string'>> = {
  'black-forest-labs/flux-schnell': {
    aspect_ratio: ['1:1', '16:9', '21:9', '3:2', '2:3', '4:5', '5:4', '3:4', '4:3', '9:16', '9:21'],
    output_format: ['webp', 'jpg', 'png'],
    megapixels: ['1', '0.25'],
    num_outputs: 'integer',
    seed: 'integer',
    go_fast: 'boolean',
    prompt: 'string',
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
  'luma/ray',
  'wan-video/wan-2.2-t2v-fast',
  'wan-video/wan-2.2-i2v-fast',
  'bytedance/seedance-1-pro',
  'kwaivgi/kling-v2.1',
  'minimax/music-01',
  'minimax/speech-02-hd',
]);

function invalidFields(schema: (typeof SCHEMAS)[string] | undefined, input: unknown) {
  const fields: { type: string; field: string; description: string }[] = [];
  if (!schema || typeof input !== 'object' || input === null) return fields;
  for (const [field, value] of Object.entries(input)) {
    const rule = schema[field];
    if (rule === undefined) continue;
    if (Array.isArray(rule) && !rule.includes(value as string)) {
      fields.push({
        type: 'enum',
        field,
        description: `${field} must be one of the following: ${rule.map((v) => `"${v}"`).join(', ')}`,
      });
    } else if (rule === 'integer' && !Number.isInteger(value)) {
      fields.push({ type: 'invalid_type', field, description: 'Invalid type. Expected: integer' });
    } else if (rule === 'boolean' && typeof value !== 'boolean') {
      fields.push({ type: 'invalid_type', field, description: 'Invalid type. Expected: boolean' });
    } else if (rule === 'string' && typeof value !== 'string') {
      fields.push({ type: 'invalid_type', field, description: 'Invalid type. Expected: string' });
    }
  }
  return fields;
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
