import type { Config } from '../../config.ts';
import { ProviderError } from '../../domain/jobs/provider-error.ts';
import { FAL_FAMILIES } from './fal-inputs.ts';
import { falResult } from './fal-outputs.ts';
import {
  type CommonBody,
  type Family,
  familyIn,
  type Json,
  mergeOptions,
  nativeInput,
  type ProviderStorage,
  progressFromLogs,
  SUBMIT_TIMEOUT_MS,
  unitsFor,
  unitsOf,
} from './native-input.ts';
import { providerFetch, providerJson } from './provider-http.ts';
import type { RemoteAdapter, RemoteJobState, SubmittedInput } from './remote-provider.ts';

/*
 * fal's queue API (docs.fal.ai/model-apis/model-endpoints/queue; fal.ai/docs/api-reference/inference-api),
 * authenticated with `Authorization: Key <FAL_KEY>`:
 * - POST {FAL_QUEUE_URL}/{model_id}                 -> { request_id, status_url, response_url, cancel_url }
 * - GET  {FAL_QUEUE_URL}/{app}/requests/{id}/status?logs=1
 *        -> IN_QUEUE (queue_position) | IN_PROGRESS (logs) | COMPLETED (error when the run failed)
 * - GET  {FAL_QUEUE_URL}/{app}/requests/{id}        -> the model's output (4xx with `detail` when it failed)
 * - PUT  {FAL_QUEUE_URL}/{app}/requests/{id}/cancel
 * `{app}` is the model id without its endpoint path: `fal-ai/flux/dev` is polled under `fal-ai/flux`
 * ("the subpath should be used when making the request, but not when getting request status or
 * results"; `workflows/` and `comfy/` ids keep three segments, as fal-js parseEndpointId does).
 */

const WHO = 'fal';
const APP_NAMESPACES = new Set(['workflows', 'comfy']);
const MAX_REMEMBERED = 10_000;

/** The `{owner}/{app}` a model's requests live under. */
export function falAppPath(modelId: string): string {
  const parts = modelId.split('/');
  return parts.slice(0, APP_NAMESPACES.has(parts[0] ?? '') ? 3 : 2).join('/');
}

interface RequestUrls {
  status: string;
  response: string;
  cancel: string;
}

interface SubmitAnswer {
  request_id?: unknown;
  status_url?: unknown;
  response_url?: unknown;
  cancel_url?: unknown;
  queue_position?: unknown;
}

interface StatusAnswer {
  status?: unknown;
  queue_position?: unknown;
  logs?: { message?: unknown }[] | null;
  error?: unknown;
}

export function createFalAdapter(config: Pick<Config, 'FAL_KEY' | 'FAL_QUEUE_URL'>): RemoteAdapter {
  const base = config.FAL_QUEUE_URL.replace(/\/+$/, '');
  const origin = new URL(base).origin;
  const headers = () => ({ authorization: `Key ${config.FAL_KEY}` });
  /**
   * What the submit taught us about a request still running here: its URLs, and the length of its
   * input media. After a restart the URLs are derived again and the length falls back.
   */
  const requests = new Map<string, { urls: RequestUrls; inputSeconds?: number }>();

  function familyOf(modelId: string): Family {
    const family = familyIn(FAL_FAMILIES, modelId);
    if (!family) throw new ProviderError('provider_rejected', `The fal adapter cannot call ${modelId}.`);
    return family;
  }

  function derivedUrls(modelId: string, requestId: string): RequestUrls {
    const request = `${base}/${falAppPath(modelId)}/requests/${encodeURIComponent(requestId)}`;
    return { status: `${request}/status`, response: request, cancel: `${request}/cancel` };
  }

  /** A URL from fal's answer, used only on the configured host: the key is never sent elsewhere. */
  function ownUrl(value: unknown, fallback: string): string {
    if (typeof value !== 'string') return fallback;
    try {
      return new URL(value).origin === origin ? value : fallback;
    } catch {
      return fallback;
    }
  }

  function urlsOf(input: SubmittedInput): RequestUrls {
    return (
      requests.get(input.providerJobId)?.urls ?? derivedUrls(input.offer.providerModelId, input.providerJobId)
    );
  }

  function state(
    input: SubmittedInput,
    providerStatus: string,
    rest: Omit<RemoteJobState, 'providerJobId' | 'providerStatus'>,
  ): RemoteJobState {
    if (rest.phase === 'succeeded' || rest.phase === 'failed' || rest.phase === 'cancelled') {
      requests.delete(input.providerJobId);
    }
    return { providerJobId: input.providerJobId, providerStatus, ...rest };
  }

  async function completed(
    input: SubmittedInput,
    urls: RequestUrls,
    signal?: AbortSignal,
  ): Promise<RemoteJobState> {
    const family = familyOf(input.offer.providerModelId);
    let result: Json;
    try {
      result = await providerJson<Json>(WHO, urls.response, { headers: headers(), signal });
    } catch (error) {
      // A run that failed answers its result with the model's error (422 validation, 400, ...).
      if (error instanceof ProviderError && error.code === 'provider_rejected') {
        return state(input, 'COMPLETED', {
          phase: 'failed',
          progress: null,
          message: null,
          error: error.message.replace(/^.*?\(\d{3}\): /, ''),
        });
      }
      throw error;
    }
    const body = input.body as CommonBody;
    const inputSeconds = requests.get(input.providerJobId)?.inputSeconds;
    const answer = falResult(family, result, body.language, inputSeconds);
    const sent = mergeOptions(family.fields(body), body.provider_options?.fal);
    return state(input, 'COMPLETED', {
      phase: 'succeeded',
      progress: 1,
      message: null,
      outputs: answer.outputs,
      billedUnits: unitsOf(
        family,
        { body, sent, typicalUnits: input.offer.typicalUnits, inputSeconds, result: answer },
        input.offer.unit,
      ),
    });
  }

  // Replaced by the provider's storage upload (issue #26, inputs by URL).
  const storage: ProviderStorage = {
    inlineMaxBytes: 200 * 1024 * 1024,
    upload: () => Promise.reject(new ProviderError('provider_rejected', 'not yet')),
  };

  return {
    id: 'fal',
    keyVariable: 'FAL_KEY',
    key: config.FAL_KEY,
    supports: (providerModelId) => familyIn(FAL_FAMILIES, providerModelId) !== undefined,

    estimateUnits(input) {
      const family = familyIn(FAL_FAMILIES, input.offer.providerModelId);
      if (!family) return null;
      const body = input.body as CommonBody;
      const sent = mergeOptions(family.fields(body), body.provider_options?.fal);
      return unitsFor(
        input.offer.unit,
        unitsOf(family, { body, sent, typicalUnits: input.offer.typicalUnits }),
      );
    },

    async submit(input, context) {
      const modelId = input.offer.providerModelId;
      const { sent, inputSeconds } = await nativeInput(
        familyOf(modelId),
        'fal',
        modelId,
        input.body as CommonBody,
        context,
        storage,
      );
      const answer = await providerJson<SubmitAnswer>(WHO, `${base}/${modelId}`, {
        method: 'POST',
        headers: headers(),
        json: sent,
        signal: context.signal,
        timeoutMs: SUBMIT_TIMEOUT_MS,
      });
      if (typeof answer.request_id !== 'string' || !answer.request_id) {
        throw new ProviderError('provider_error', 'fal accepted the job without a request_id.');
      }
      const derived = derivedUrls(modelId, answer.request_id);
      const urls = {
        status: ownUrl(answer.status_url, derived.status),
        response: ownUrl(answer.response_url, derived.response),
        cancel: ownUrl(answer.cancel_url, derived.cancel),
      };
      // Bounded: a job abandoned without a terminal poll (deadline, crash) must not pin memory.
      if (requests.size >= MAX_REMEMBERED) requests.delete(requests.keys().next().value ?? '');
      requests.set(answer.request_id, inputSeconds === undefined ? { urls } : { urls, inputSeconds });
      return {
        providerJobId: answer.request_id,
        providerStatus: 'IN_QUEUE',
        phase: 'queued',
        progress: null,
        message: queuedMessage(answer.queue_position),
      };
    },

    async poll(input, signal) {
      const urls = urlsOf(input);
      const statusUrl = new URL(urls.status);
      statusUrl.searchParams.set('logs', '1');
      const answer = await providerJson<StatusAnswer>(WHO, statusUrl.toString(), {
        headers: headers(),
        signal,
      });
      const status = typeof answer.status === 'string' ? answer.status : 'UNKNOWN';
      const error = typeof answer.error === 'string' && answer.error ? answer.error : null;
      switch (status) {
        case 'IN_QUEUE':
          return state(input, status, {
            phase: 'queued',
            progress: null,
            message: queuedMessage(answer.queue_position),
          });
        case 'COMPLETED':
          return error
            ? state(input, status, { phase: 'failed', progress: null, message: null, error })
            : completed(input, urls, signal);
        case 'FAILED':
          return state(input, status, {
            phase: 'failed',
            progress: null,
            message: null,
            error: error ?? status,
          });
        case 'CANCELED':
        case 'CANCELLED':
          return state(input, status, { phase: 'cancelled', progress: null, message: null });
        default: {
          const logs = (answer.logs ?? []).map((log) => (typeof log.message === 'string' ? log.message : ''));
          const done = progressFromLogs(logs.join('\n'));
          return state(input, status, {
            phase: 'running',
            progress: done === null ? null : 0.1 + 0.8 * done,
            message: done === null ? null : `Running at fal (${Math.round(done * 100)}%)`,
          });
        }
      }
    },

    async cancel(input) {
      const urls = urlsOf(input);
      requests.delete(input.providerJobId);
      await providerFetch(WHO, urls.cancel, { method: 'PUT', headers: headers() });
    },
  };
}

function queuedMessage(position: unknown): string | null {
  return typeof position === 'number' ? `Queued at fal (position ${position})` : null;
}
