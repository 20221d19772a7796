import {
  type JsonServer,
  type Reply,
  type StoredFile,
  startJsonServer,
} from './fal-replicate-test-context.ts';

/*
 * A local stand-in for Replicate's HTTP API under `/v1`, answering as its documentation shows: Bearer
 * auth (401 problem details otherwise), `POST /models/{owner}/{name}/predictions` and
 * `POST /predictions { version }` -> 201 prediction `starting`, then `processing` with logs, then
 * `succeeded` with `output` (or `failed` with `error`), `POST /predictions/{id}/cancel`, and 429
 * `{"detail": "Request was throttled..."}` with Retry-After. Output files are served under `/files`.
 */

export interface Prediction {
  id: string;
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
}

export interface ReplicateProtocolServer extends JsonServer {
  /** The API base URL (with `/v1`). */
  apiUrl: string;
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
  };
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
    created_at: '2025-01-01T00:00:00.000Z',
    urls: {
      get: `${origin}/v1/predictions/${p.id}`,
      cancel: `${origin}/v1/predictions/${p.id}/cancel`,
      stream: `${origin}/stream/${p.id}`,
    },
    ...extra,
  });

  const server = await startJsonServer((request, origin): Reply => {
    if (request.path.startsWith('/files/')) {
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
    const body = (request.body ?? {}) as { input?: unknown; version?: unknown };
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
      counter++;
      const prediction: Prediction = {
        id: `pred${counter}`,
        model: official?.[1] ?? 'community/model',
        version: official ? null : (body.version as string),
        input: body.input,
        polls: 0,
        status: 'starting',
      };
      predictions.set(prediction.id, prediction);
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
  return { ...server, apiUrl: `${server.url}/v1`, behaviour, predictions, files };
}
