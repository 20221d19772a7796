/**
 * A provider refused or failed a job. `code` becomes the failed job's `error.code`:
 * - `provider_rate_limited`: it answered 429 (after our retries);
 * - `provider_auth`: it refused our key (401/403): the operator must fix the key;
 * - `provider_rejected`: it refused the request itself (400/404/422): the person must change it;
 * - `provider_cancelled`: the job was cancelled at the provider, not by us;
 * - `provider_error`: anything else (5xx, network, a failed prediction).
 */
export type ProviderErrorCode =
  | 'provider_rate_limited'
  | 'provider_auth'
  | 'provider_rejected'
  | 'provider_cancelled'
  | 'provider_error';

export class ProviderError extends Error {
  constructor(
    readonly code: ProviderErrorCode,
    message: string,
    readonly options: { status?: number; retryAfterMs?: number; retryable?: boolean } = {},
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
