import {
  type JsonServer,
  type Reply,
  type StoredFile,
  startJsonServer,
} from './fal-replicate-test-context.ts';

/*
 * A local stand-in for fal's queue API, answering as its documentation shows: `Key` auth (401 with a
 * `detail` otherwise), submit -> request_id and the three URLs under the model's app path (without the
 * endpoint sub-path), status IN_QUEUE (202, queue_position) -> IN_PROGRESS (202, logs) -> COMPLETED
 * (200), the result, cancel (202 CANCELLATION_REQUESTED). Output files are served by the same server.
 */

/** The documented rule, written out independently of the adapter: owner and app, without the sub-path. */
const appOf = (modelId: string) => modelId.split('/').slice(0, 2).join('/');

export interface FalRequestState {
  id: string;
  modelId: string;
  input: unknown;
  polls: number;
  cancelled: boolean;
}

export interface FalBehaviour {
  /** Status answers before COMPLETED: the first is IN_QUEUE, the others IN_PROGRESS. */
  pollsBeforeDone: number;
  /** Stay IN_PROGRESS for ever (to cancel mid-run). */
  neverFinish: boolean;
  /** Answer the next submits 429 with this Retry-After (seconds). */
  rateLimitSubmits: number;
  retryAfter: string;
  /** The model's answer, or its failure (the result endpoint then answers this status and detail). */
  result: (origin: string, request: FalRequestState) => unknown;
  failure: { status: number; detail: unknown } | null;
}

export interface FalProtocolServer extends JsonServer {
  behaviour: FalBehaviour;
  requests: Map<string, FalRequestState>;
  /** Files served at `{url}/files/{name}`. */
  files: Map<string, StoredFile>;
}

export async function startFalProtocolServer(key: string): Promise<FalProtocolServer> {
  const requests = new Map<string, FalRequestState>();
  const files = new Map<string, StoredFile>();
  const behaviour: FalBehaviour = {
    pollsBeforeDone: 2,
    neverFinish: false,
    rateLimitSubmits: 0,
    retryAfter: '0',
    result: (origin) => ({ images: [{ url: `${origin}/files/out.png`, content_type: 'image/png' }] }),
    failure: null,
  };
  let counter = 0;

  const urlsOf = (origin: string, request: FalRequestState) => {
    const base = `${origin}/${appOf(request.modelId)}/requests/${request.id}`;
    return { response_url: base, status_url: `${base}/status`, cancel_url: `${base}/cancel` };
  };

  const server = await startJsonServer((request, origin): Reply => {
    if (request.path.startsWith('/files/')) {
      const file = files.get(request.path.slice('/files/'.length));
      return file
        ? { status: 200, bytes: file.body, headers: { 'content-type': file.contentType } }
        : { status: 404, json: { detail: 'Not Found' } };
    }
    if (request.headers.authorization !== `Key ${key}`) {
      return { status: 401, json: { detail: 'No user found for Key ID and Secret' } };
    }
    const match = /^\/(.+)\/requests\/([^/]+)(\/status|\/cancel)?$/.exec(request.path);
    if (!match) {
      if (request.method !== 'POST') return { status: 405, json: { detail: 'Method Not Allowed' } };
      if (behaviour.rateLimitSubmits > 0) {
        behaviour.rateLimitSubmits--;
        return {
          status: 429,
          json: { detail: 'Too many requests: concurrency limit reached' },
          headers: { 'retry-after': behaviour.retryAfter },
        };
      }
      counter++;
      const state: FalRequestState = {
        id: `req-${counter}`,
        modelId: request.path.slice(1),
        input: request.body,
        polls: 0,
        cancelled: false,
      };
      requests.set(state.id, state);
      return {
        status: 200,
        json: { status: 'IN_QUEUE', request_id: state.id, ...urlsOf(origin, state), queue_position: 0 },
      };
    }
    const [, app, id = '', action] = match;
    const state = requests.get(id);
    // Status, result and cancel live under the app path only: a sub-path there is not found.
    if (!state || appOf(state.modelId) !== app) return { status: 404, json: { detail: 'Request not found' } };
    const urls = urlsOf(origin, state);
    if (action === '/cancel') {
      if (request.method !== 'PUT') return { status: 405, json: { detail: 'Method Not Allowed' } };
      state.cancelled = true;
      return { status: 202, json: { status: 'CANCELLATION_REQUESTED' } };
    }
    if (action === '/status') {
      state.polls++;
      const logs = [
        { message: 'Loading model', level: 'INFO', source: 'USER', timestamp: new Date().toISOString() },
      ];
      if (behaviour.neverFinish || state.polls <= behaviour.pollsBeforeDone) {
        return state.polls === 1 && !behaviour.neverFinish
          ? { status: 202, json: { status: 'IN_QUEUE', request_id: id, ...urls, queue_position: 3 } }
          : {
              status: 202,
              json: {
                status: 'IN_PROGRESS',
                request_id: id,
                ...urls,
                logs: [
                  ...logs,
                  { message: ' 40%|████      | 8/20 [00:02<00:03]', level: 'INFO', source: 'USER' },
                ],
              },
            };
      }
      return {
        status: 200,
        json: { status: 'COMPLETED', request_id: id, ...urls, logs, metrics: { inference_time: 1.5 } },
      };
    }
    if (state.polls <= behaviour.pollsBeforeDone) {
      return { status: 400, json: { detail: 'Request is still in progress' } };
    }
    if (behaviour.failure) {
      return {
        status: behaviour.failure.status,
        json: { detail: behaviour.failure.detail },
        headers: { 'x-fal-error-type': 'content_policy_violation' },
      };
    }
    return { status: 200, json: behaviour.result(origin, state) };
  });
  return { ...server, behaviour, requests, files };
}
