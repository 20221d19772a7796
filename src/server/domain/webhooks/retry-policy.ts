/** How a failed webhook is retried: exponential backoff with full jitter, a cap and a maximum of tries. */
export interface WebhookRetryPolicy {
  /** Ceiling of the first retry's delay. */
  baseDelayMs: number;
  /** Each further retry multiplies the ceiling by this. */
  factor: number;
  /** No delay exceeds this. */
  maxDelayMs: number;
  /** Tries in all (the first send included); after the last failure the delivery is `failed`. */
  maxAttempts: number;
  /** How long one request may take, from connecting to the response headers. */
  timeoutMs: number;
  /** Source of jitter in [0, 1); tests pin it. */
  random: () => number;
}

/** Production: 5 s, ×3, capped at 1 h, 8 tries (about 1.5 h at most in all), 15 s per request. */
export const DEFAULT_WEBHOOK_RETRY_POLICY: Readonly<WebhookRetryPolicy> = Object.freeze({
  baseDelayMs: 5_000,
  factor: 3,
  maxDelayMs: 3_600_000,
  maxAttempts: 8,
  timeoutMs: 15_000,
  random: Math.random,
});

/**
 * Delay before the retry that follows failed try number `failedAttempt` (1-based): "full jitter", a uniform
 * draw in [0, min(cap, base × factor^(failedAttempt − 1))], so receivers recovering from an outage are not
 * hit by every sender at once.
 */
export function retryDelayMs(failedAttempt: number, policy: WebhookRetryPolicy): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * policy.factor ** (failedAttempt - 1));
  return Math.floor(Math.min(1, Math.max(0, policy.random())) * ceiling);
}
