import type { Config } from '../../config.ts';
import { safeFetchStream } from '../../net/safe-fetch.ts';
import { urlPolicyFromConfig } from '../../net/url-policy.ts';

/** Makes one webhook request: POST `body` to `url` with `headers`, giving up after `timeoutMs`. */
export type WebhookSender = (
  url: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
) => Promise<{ status: number }>;

/**
 * THE place that chooses how the delivery worker sends webhooks (unless a test overrides it through
 * `webhookDeliverySettings.sender` in queue/webhook-delivery.ts): the SSRF-guarded fetcher, so
 * BLOCKED_DOMAINS and private addresses are refused at connect time (ALLOW_PRIVATE_NETWORK lifts the
 * latter), redirects are not followed, and the answer's body is discarded.
 */
export function createWebhookSender(config: Config): WebhookSender {
  const policy = urlPolicyFromConfig(config);
  return async (url, headers, body, timeoutMs) => {
    const response = await safeFetchStream(url, {
      policy,
      method: 'POST',
      headers,
      body,
      maxRedirects: 0,
      rejectHttpErrors: false,
      timeoutMs,
    });
    response.body.destroy();
    return { status: response.status };
  };
}
