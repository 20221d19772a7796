import { ProviderError } from '../../domain/jobs/provider-error.ts';
import { type ProviderRequest, providerFetch, providerJson } from './provider-http.ts';

export const OPENAI = 'OpenAI';

/** Calls to OpenAI's REST API: bearer auth, its base URL, and its error answers made ProviderErrors. */
export interface OpenAIApi {
  json<T>(path: string, request?: ProviderRequest): Promise<T>;
  fetch(path: string, request?: ProviderRequest): Promise<Response>;
}

export function openAIApi(baseUrl: string, key: string | undefined): OpenAIApi {
  const base = baseUrl.replace(/\/+$/, '');
  const withAuth = (request: ProviderRequest): ProviderRequest => ({
    refusal: isModerationRefusal,
    ...request,
    headers: { ...request.headers, authorization: `Bearer ${key ?? ''}` },
  });
  const call = async <T>(answer: Promise<T>): Promise<T> => {
    try {
      return await answer;
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      // OpenAI answers 429 both for rate limits (worth waiting for) and for an exhausted quota
      // (`insufficient_quota`: only the operator adding credit helps): the latter is not retried.
      const quota = error.options.status === 429 && /quota|billing/i.test(error.message);
      throw new ProviderError(error.code, redactKey(error.message, key), {
        ...error.options,
        ...(quota ? { retryable: false } : {}),
      });
    }
  };
  return {
    json: <T>(path: string, request: ProviderRequest = {}) =>
      call(providerJson<T>(OPENAI, `${base}${path}`, withAuth(request))),
    fetch: (path, request = {}) => call(providerFetch(OPENAI, `${base}${path}`, withAuth(request))),
  };
}

/**
 * A provider message without our key: OpenAI's 401 echoes the key it refused ("Incorrect API key
 * provided: sk-…", masked only when long), and error messages end up on jobs and in logs.
 */
export function redactKey(message: string, key: string | undefined): string {
  const withoutKey = key ? message.split(key).join('[key]') : message;
  return withoutKey.replace(/\bsk-[A-Za-z0-9*_-]+/g, 'sk-[redacted]');
}

/**
 * OpenAI's error codes for a prompt or input its safety system refused: `moderation_blocked` (GPT image
 * models and Sora, `type: image_generation_user_error`) and `content_policy_violation` (the DALL·E models),
 * both answered as 400 in OpenAI's error object `{error: {message, type, param, code}}`
 * (https://platform.openai.com/docs/guides/image-generation#content-moderation,
 * https://platform.openai.com/docs/guides/error-codes).
 */
export const MODERATION_CODES = ['moderation_blocked', 'content_policy_violation'];

export function isModerationRefusal(body: string): boolean {
  try {
    const code = (JSON.parse(body) as { error?: { code?: unknown } }).error?.code;
    return typeof code === 'string' && MODERATION_CODES.includes(code);
  } catch {
    return false;
  }
}
