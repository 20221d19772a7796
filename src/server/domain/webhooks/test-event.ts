import {
  WEBHOOK_TEST_EVENT_TYPE,
  type WebhookTestEvent,
  type WebhookTestResult,
} from '../../../contract/webhooks.ts';
import type { Queryable } from '../../db/pool.ts';
import { describeSendError } from './deliveries.ts';
import { DEFAULT_WEBHOOK_RETRY_POLICY } from './retry-policy.ts';
import { webhookSigningSecrets } from './secrets.ts';
import type { WebhookSender } from './sender.ts';
import { newWebhookId, signedWebhookHeaders } from './signature.ts';

/**
 * "Send a test event": one `webhook.test` request to `url`, signed with the team's secret by the same
 * code as a job's event (signedWebhookHeaders) and sent by the same guarded sender, so a receiver that
 * verifies it will verify real ones. One try, answered at once; nothing is stored or retried. The caller
 * checks the URL first (the rules of `webhook_url`); the sender checks again when it connects.
 */
export async function sendTestEvent(
  db: Queryable,
  encryptionKey: Buffer,
  teamId: string,
  url: string,
  send: WebhookSender,
): Promise<WebhookTestResult> {
  const secrets = await webhookSigningSecrets(db, encryptionKey, teamId);
  const webhookId = newWebhookId();
  const sentAt = new Date();
  const event: WebhookTestEvent = {
    type: WEBHOOK_TEST_EVENT_TYPE,
    timestamp: sentAt.toISOString(),
    data: {
      team_id: teamId,
      message:
        'A test event from Media Console: if your receiver verified this signature, it will verify job events.',
    },
  };
  const body = JSON.stringify(event);
  const timeoutMs = DEFAULT_WEBHOOK_RETRY_POLICY.timeoutMs;
  const started = performance.now();
  let status: number | null = null;
  let error: string | null = null;
  try {
    ({ status } = await send(url, signedWebhookHeaders(secrets, webhookId, body), body, timeoutMs));
    if (status < 200 || status >= 300) error = `receiver answered HTTP ${status}`;
  } catch (caught) {
    error = describeSendError(caught, timeoutMs);
  }
  return {
    webhook_id: webhookId,
    url,
    delivered: error === null,
    response_status: status,
    error,
    duration_ms: Math.max(0, Math.round(performance.now() - started)),
    sent_at: sentAt.toISOString(),
  };
}
