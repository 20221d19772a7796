import { Readable } from 'node:stream';
import { type Acceptance, ProviderError } from '../../domain/jobs/provider-error.ts';

/** One request to a provider's own API (its base URL comes from configuration, never from a user). */
export interface ProviderRequest {
  method?: 'GET' | 'POST' | 'DELETE' | 'PUT';
  headers?: Record<string, string>;
  /** Sent as JSON. */
  json?: unknown;
  /** Sent as multipart/form-data. */
  form?: FormData;
  /**
   * Sent as the raw body, streamed (uploads to a provider's storage): memory stays flat whatever the
   * size. `length` becomes Content-Length when known (some storage refuses chunked uploads).
   */
  stream?: { body: Readable; contentType: string; length?: number | null };
  signal?: AbortSignal;
  /** Deadline of the whole exchange (default 60 s). */
  timeoutMs?: number;
  /**
   * Whether a 4xx answer is the provider refusing the content under its policy (OpenAI's
   * `moderation_blocked`, ElevenLabs' `bad_prompt`): such an answer becomes `content_policy_violation`.
   * Default: fal's markers (isContentPolicyRefusal).
   */
  refusal?: (body: string, headers: Headers) => boolean;
}

/** The provider, for messages: `fal`, `OpenAI`, ... */
type Who = string;

const DEFAULT_TIMEOUT_MS = 60_000;
const MAX_ERROR_TEXT = 500;

/** Milliseconds from a Retry-After header (seconds or an HTTP date), if any. */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.round(seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * Milliseconds until OpenAI's exhausted limit resets, from `x-ratelimit-reset-requests` /
 * `x-ratelimit-reset-tokens` (durations such as `1s`, `6m0s`, `20ms`), for 429s without Retry-After.
 * The longer of the two, since we cannot tell which limit was hit.
 */
export function rateLimitResetMs(headers: Headers): number | undefined {
  const units: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1 };
  let longest: number | undefined;
  for (const name of ['x-ratelimit-reset-requests', 'x-ratelimit-reset-tokens']) {
    const value = headers.get(name)?.trim();
    if (!value || !/^(\d+(\.\d+)?(ms|h|m|s))+$/.test(value)) continue;
    let ms = 0;
    for (const [, amount, unit] of value.matchAll(/(\d+(?:\.\d+)?)(ms|h|m|s)/g)) {
      ms += Number(amount) * (units[unit ?? 's'] ?? 0);
    }
    longest = Math.max(longest ?? 0, Math.round(ms));
  }
  return longest;
}

/** The human part of a provider's error body, whichever of the usual shapes it has. */
export function providerMessage(text: string): string {
  try {
    const body = JSON.parse(text) as Record<string, unknown>;
    const error = body.error as Record<string, unknown> | string | undefined;
    const detail = body.detail as Record<string, unknown> | string | unknown[] | undefined;
    const candidates = [
      typeof error === 'object' ? error?.message : error,
      typeof detail === 'string' ? detail : undefined,
      Array.isArray(detail) ? (detail[0] as Record<string, unknown> | undefined)?.msg : undefined,
      detail && typeof detail === 'object' && !Array.isArray(detail) ? detail.message : undefined,
      body.message,
      body.title,
    ];
    const found = candidates.find((c): c is string => typeof c === 'string' && c.length > 0);
    if (found) return found.slice(0, MAX_ERROR_TEXT);
  } catch {
    // not JSON: fall through to the text itself
  }
  return text.trim().slice(0, MAX_ERROR_TEXT) || 'no details';
}

/**
 * Whether an error answer is a content-policy refusal, as fal marks one: a `detail` entry of type
 * `content_policy_violation` (fal.ai/docs/documentation/model-apis/errors), or that `error_type` in the
 * body or the `X-Fal-Error-Type` header (fal.ai/docs/documentation/model-apis/request-errors).
 */
export function isContentPolicyRefusal(text: string, headers: Headers): boolean {
  const marker = 'content_policy_violation';
  if (headers.get('x-fal-error-type') === marker) return true;
  try {
    const body = JSON.parse(text) as { detail?: unknown; error_type?: unknown };
    if (body.error_type === marker) return true;
    return (
      Array.isArray(body.detail) &&
      body.detail.some((entry) => (entry as { type?: unknown } | null)?.type === marker)
    );
  } catch {
    return false;
  }
}

/** Turns a non-2xx answer into the ProviderError of its kind. */
export async function errorOf(
  who: Who,
  response: Response,
  refusal: (body: string, headers: Headers) => boolean = isContentPolicyRefusal,
): Promise<ProviderError> {
  const text = await response.text().catch(() => '');
  const message = providerMessage(text);
  const status = response.status;
  // A 4xx is an answer about the request itself: nothing was created. A 5xx may come after the work was
  // taken (a gateway that lost the backend's answer), so it proves nothing.
  const accepted: Acceptance = status < 500 ? 'no' : 'unknown';
  if (status >= 400 && status < 500 && status !== 429 && refusal(text, response.headers)) {
    return new ProviderError(
      'content_policy_violation',
      `${who} refused the request under its content policy: ${message}`,
      { status, accepted },
    );
  }
  if (status === 429) {
    return new ProviderError('provider_rate_limited', `${who} is rate limiting us: ${message}`, {
      status,
      accepted,
      retryAfterMs: retryAfterMs(response.headers.get('retry-after')) ?? rateLimitResetMs(response.headers),
    });
  }
  if (status === 401 || status === 403) {
    return new ProviderError('provider_auth', `${who} refused the server's API key (${status}): ${message}`, {
      status,
      accepted,
    });
  }
  if (status >= 400 && status < 500) {
    return new ProviderError('provider_rejected', `${who} rejected the request (${status}): ${message}`, {
      status,
      accepted,
    });
  }
  return new ProviderError('provider_error', `${who} failed (${status}): ${message}`, { status, accepted });
}

/** Network failures that happen before a request is sent: the provider cannot have seen it. */
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH']);

/** What a failed fetch (no HTTP answer) says about whether the provider may have taken the request. */
export function acceptanceOf(error: unknown): Acceptance {
  let cause: unknown = error;
  for (let depth = 0; depth < 4 && cause && typeof cause === 'object'; depth++) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string' && NOT_SENT.has(code)) return 'no';
    cause = (cause as { cause?: unknown }).cause;
  }
  return 'unknown';
}

/** Sends one request; resolves with the 2xx Response, rejects with a ProviderError otherwise. */
export async function providerFetch(who: Who, url: string, request: ProviderRequest = {}): Promise<Response> {
  const timeout = AbortSignal.timeout(request.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
  const headers: Record<string, string> = { accept: 'application/json', ...request.headers };
  let body: string | FormData | ReadableStream | undefined;
  if (request.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(request.json);
  } else if (request.form) {
    body = request.form;
  } else if (request.stream) {
    headers['content-type'] = request.stream.contentType;
    if (request.stream.length != null) headers['content-length'] = String(request.stream.length);
    body = Readable.toWeb(request.stream.body) as ReadableStream;
  }
  let response: Response;
  try {
    response = await fetch(url, {
      method: request.method ?? 'GET',
      headers,
      body,
      signal,
      redirect: 'follow',
      // A streamed body goes as it is read (undici requires saying so).
      ...(request.stream ? { duplex: 'half' } : {}),
    } as RequestInit);
  } catch (error) {
    if (request.signal?.aborted) throw request.signal.reason ?? error;
    const reason = timeout.aborted ? 'timed out' : fetchFailure(error);
    throw new ProviderError('provider_error', `${who} could not be reached: ${reason}`, {
      accepted: timeout.aborted ? 'unknown' : acceptanceOf(error),
    });
  }
  if (!response.ok) throw await errorOf(who, response, request.refusal);
  return response;
}

/** A fetch failure's message with its cause's (undici says only "fetch failed"). */
function fetchFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? error.cause.message : '';
  return cause && !error.message.includes(cause) ? `${error.message} (${cause})` : error.message;
}

/** A request whose 2xx answer is JSON. */
export async function providerJson<T>(who: Who, url: string, request: ProviderRequest = {}): Promise<T> {
  const response = await providerFetch(who, url, request);
  const text = await response.text();
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new ProviderError(
      'provider_error',
      `${who} answered ${response.status} with a body that is not JSON.`,
      // A 2xx was sent: whatever it said, the request may have been taken.
      { accepted: 'unknown' },
    );
  }
}
