import type { Config } from '../../config.ts';
import { ProviderError } from '../../domain/jobs/provider-error.ts';
import { FAL_FAMILIES } from './fal-inputs.ts';
import { falResult } from './fal-outputs.ts';
import { createFalStorage } from './fal-storage.ts';
import { createFalWebhookVerifier } from './fal-webhooks.ts';
import {
  type CommonBody,
  type Family,
  familyIn,
  isPlainObject,
  type Json,
  mergeOptions,
  nativeInput,
  progressFromLogs,
  SUBMIT_TIMEOUT_MS,
  unitsFor,
  unitsOf,
} from './native-input.ts';
import { isContentPolicyRefusal, providerFetch, providerJson, providerMessage } from './provider-http.ts';
import { logTail } from './provider-storage.ts';
import type { RemoteAdapter, RemoteJobState, SubmittedInput } from './remote-provider.ts';

/*
 * fal's queue API (docs.fal.ai/model-apis/model-endpoints/queue; fal.ai/docs/api-reference/inference-api),
 * authenticated with `Authorization: Key <FAL_KEY>`:
 * - POST {FAL_QUEUE_URL}/{model_id}                 -> { request_id, status_url, response_url, cancel_url }
 * - GET  {FAL_QUEUE_URL}/{app}/requests/{id}/status?logs=1
 *        -> IN_QUEUE (queue_position) | IN_PROGRESS (logs) | COMPLETED (error when the run failed)
 * - GET  {FAL_QUEUE_URL}/{app}/requests/{id}        -> the model's output (4xx with `detail` when it failed)
 * - PUT  {FAL_QUEUE_URL}/{app}/requests/{id}/cancel
 * With a webhook URL the submit carries `?fal_webhook=<url>` (fal.ai/docs/model-apis/webhooks): fal then
 * POSTs { request_id, gateway_request_id, status: OK | ERROR, payload, error?, payload_error? }, signed
 * (fal-webhooks.ts). A result is kept 1 hour, or 6 minutes when it is 10 KB or more
 * (fal.ai/docs/inference-api/queue/result). The queue API looks a request up by its id only, so a submit
 * whose answer was lost cannot be found again (no findSubmitted): the runner fails it as unknown.
 * Input files go by URL, inline under 1 MB, or through fal's storage (fal-storage.ts).
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
  error_type?: unknown;
}

/** A webhook delivery's body. */
interface WebhookBody {
  status?: unknown;
  payload?: unknown;
  error?: unknown;
}

const CONTENT_POLICY = 'content_policy_violation';

export function createFalAdapter(
  config: Pick<Config, 'FAL_KEY' | 'FAL_QUEUE_URL' | 'FAL_STORAGE_URL' | 'FAL_JWKS_URL'>,
): RemoteAdapter {
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

  /** A finished request's result as our state (from the result endpoint or a webhook's payload). */
  function succeeded(input: SubmittedInput, result: Json): RemoteJobState {
    const family = familyOf(input.offer.providerModelId);
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

  async function completed(
    input: SubmittedInput,
    urls: RequestUrls,
    signal?: AbortSignal,
    logs?: string,
  ): Promise<RemoteJobState> {
    let result: Json;
    try {
      result = await providerJson<Json>(WHO, urls.response, { headers: headers(), signal });
    } catch (error) {
      const failed = (message: string, errorCode?: ProviderError['code']) =>
        state(input, 'COMPLETED', {
          phase: 'failed',
          progress: null,
          message: null,
          error: message,
          ...(errorCode ? { errorCode } : {}),
          ...(logs ? { logs } : {}),
        });
      const status = error instanceof ProviderError ? error.options.status : undefined;
      // The result is gone: fal keeps one 6 minutes when it is 10 KB or more.
      if (status === 404 || status === 410) {
        return failed('fal no longer keeps this result (results of 10 KB or more are kept 6 minutes).');
      }
      // A run that failed answers its result with the model's error (422 validation, content policy, ...).
      if (
        error instanceof ProviderError &&
        (error.code === 'provider_rejected' || error.code === CONTENT_POLICY)
      ) {
        const reason = error.message.replace(/^.*?(\(\d{3}\)|content policy): /, '');
        return failed(reason, error.code === CONTENT_POLICY ? CONTENT_POLICY : undefined);
      }
      throw error;
    }
    const done = succeeded(input, result);
    return logs ? { ...done, logs } : done;
  }

  const storage = createFalStorage({ restUrl: config.FAL_STORAGE_URL, key: config.FAL_KEY });
  const verifyWebhook = createFalWebhookVerifier({ jwksUrl: config.FAL_JWKS_URL });

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
      const submitUrl = new URL(`${base}/${modelId}`);
      if (context.webhookUrl) submitUrl.searchParams.set('fal_webhook', context.webhookUrl);
      // From here on a failure may have created the request at fal.
      await context.beforeSend();
      const answer = await providerJson<SubmitAnswer>(WHO, submitUrl.toString(), {
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
      const lines = (answer.logs ?? []).map((log) => (typeof log.message === 'string' ? log.message : ''));
      const logs = lines.length ? logTail(lines.join('\n')) : undefined;
      const withLogs = logs ? { logs } : {};
      const failed = (reason: string) =>
        state(input, status, {
          phase: 'failed',
          progress: null,
          message: null,
          error: reason,
          ...(answer.error_type === CONTENT_POLICY ? { errorCode: CONTENT_POLICY } : {}),
          ...withLogs,
        });
      switch (status) {
        case 'IN_QUEUE':
          return state(input, status, {
            phase: 'queued',
            progress: null,
            message: queuedMessage(answer.queue_position),
          });
        case 'COMPLETED':
          return error ? failed(error) : completed(input, urls, signal, logs);
        case 'FAILED':
          return failed(error ?? status);
        case 'CANCELED':
        case 'CANCELLED':
          return state(input, status, { phase: 'cancelled', progress: null, message: null, ...withLogs });
        default: {
          const done = progressFromLogs(logs ?? '');
          return state(input, status, {
            phase: 'running',
            progress: done === null ? null : 0.1 + 0.8 * done,
            message: done === null ? null : `Running at fal (${Math.round(done * 100)}%)`,
            ...withLogs,
          });
        }
      }
    },

    async cancel(input) {
      const urls = urlsOf(input);
      requests.delete(input.providerJobId);
      await providerFetch(WHO, urls.cancel, { method: 'PUT', headers: headers() });
    },

    verifyWebhook,

    stateFromWebhook(input, delivery) {
      let body: WebhookBody;
      try {
        body = JSON.parse(delivery.body.toString('utf8')) as WebhookBody;
      } catch {
        return null;
      }
      if (body.status === 'OK' && isPlainObject(body.payload)) return succeeded(input, body.payload);
      if (body.status === 'ERROR') {
        // The model's error answer is the payload ({ detail }); `error` says what happened to the request.
        const payload = JSON.stringify(body.payload ?? {});
        const policy = isContentPolicyRefusal(payload, new Headers());
        const detail = body.payload ? providerMessage(payload) : '';
        const reason = typeof body.error === 'string' && body.error ? body.error : 'the request failed';
        return state(input, 'ERROR', {
          phase: 'failed',
          progress: null,
          message: null,
          error: detail && detail !== 'no details' && detail !== '{}' ? `${reason}: ${detail}` : reason,
          ...(policy ? { errorCode: CONTENT_POLICY } : {}),
        });
      }
      // OK without a payload (it could not be sent, `payload_error`): the result endpoint has it.
      return null;
    },
  };
}

function queuedMessage(position: unknown): string | null {
  return typeof position === 'number' ? `Queued at fal (position ${position})` : null;
}
