import type { Readable } from 'node:stream';
import type { Config } from '../../config.ts';
import { safeFetchStream } from '../../net/safe-fetch.ts';
import { urlPolicyFromConfig } from '../../net/url-policy.ts';
import { DELIVERY_LOG_BODY_BYTES } from './delivery-log.ts';

/** What a receiver answered: its status, and for the delivery log its headers and the first bytes of its body. */
export interface WebhookAnswer {
  status: number;
  headers?: Record<string, string>;
  /** The body's first DELIVERY_LOG_BODY_BYTES, as UTF-8 text. */
  body?: string;
  /** True when the body was longer than what `body` holds. */
  bodyTruncated?: boolean;
}

/** Makes one webhook request: POST `body` to `url` with `headers`, giving up after `timeoutMs`. */
export type WebhookSender = (
  url: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
) => Promise<WebhookAnswer>;

/**
 * Reads at most `limit` bytes of a stream, then drops the rest (a receiver answering a huge page, or never
 * ending its body, costs no more than that).
 */
async function readHead(stream: Readable, limit: number): Promise<{ text: string; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  try {
    for await (const chunk of stream) {
      const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
      chunks.push(buf);
      size += buf.length;
      if (size > limit) {
        truncated = true;
        break;
      }
    }
  } catch {
    // A body cut off mid-way (reset, timeout) still shows what arrived.
  } finally {
    stream.destroy();
  }
  const all = Buffer.concat(chunks);
  return { text: all.subarray(0, limit).toString('utf8'), truncated: truncated || all.length > limit };
}

/**
 * THE place that chooses how the delivery worker sends webhooks (unless a test overrides it through
 * `webhookDeliverySettings.sender` in queue/webhook-delivery.ts): the SSRF-guarded fetcher, so
 * BLOCKED_DOMAINS and private addresses are refused at connect time (ALLOW_PRIVATE_NETWORK lifts the
 * latter), redirects are not followed, and only the answer's first bytes are kept (the delivery log).
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
    const head = await readHead(response.body, DELIVERY_LOG_BODY_BYTES);
    return {
      status: response.status,
      headers: response.headers,
      body: head.text,
      bodyTruncated: head.truncated,
    };
  };
}
