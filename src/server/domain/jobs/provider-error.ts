/**
 * A provider refused or failed a job. `code` becomes the failed job's `error.code`:
 * - `provider_rate_limited`: it answered 429 (after our retries);
 * - `provider_auth`: it refused our key (401/403): the operator must fix the key;
 * - `provider_rejected`: it refused the request itself (400/404/422): the person must change it;
 * - `provider_cancelled`: the job was cancelled at the provider, not by us;
 * - `content_policy_violation`: the provider refused the prompt or an input under its content policy
 *   (fal's `content_policy_violation`, Replicate's and OpenAI's moderation): the person must change it;
 * - `provider_timeout`: the job did not finish within our deadline (it was cancelled at the provider);
 * - `provider_submit_unknown`: a submit failed in a way that does not tell whether the provider took the
 *   job, and it could not be found there: we did not submit again (that could run and bill it twice);
 * - `provider_error`: anything else (5xx, network, a failed prediction).
 */
export type ProviderErrorCode =
  | 'provider_rate_limited'
  | 'provider_auth'
  | 'provider_rejected'
  | 'provider_cancelled'
  | 'content_policy_violation'
  | 'provider_timeout'
  | 'provider_submit_unknown'
  | 'provider_error';

/**
 * Whether a failed request reached the provider in a way that may have created something there:
 * - `no`: it provably did not (the connection was refused, the host unknown, a 4xx such as 429 or 422);
 * - `unknown`: it may have (a timeout or a reset after the request was sent, a 5xx).
 * A submit is tried again only after `no` (see remote-provider.ts).
 */
export type Acceptance = 'no' | 'unknown';

export class ProviderError extends Error {
  constructor(
    readonly code: ProviderErrorCode,
    message: string,
    readonly options: {
      status?: number;
      retryAfterMs?: number;
      retryable?: boolean;
      /** Set by provider-http for failed requests; absent on errors made from a provider's answer. */
      accepted?: Acceptance;
    } = {},
  ) {
    super(message);
    this.name = 'ProviderError';
  }

  /** Worth trying again after a pause: rate limits, 5xx and network failures. */
  get retryable(): boolean {
    return (
      this.options.retryable ?? (this.code === 'provider_rate_limited' || this.code === 'provider_error')
    );
  }
}
