import { z } from 'zod';
import {
  type DeliverySettings,
  deliverWebhookTry,
  WEBHOOK_DELIVERY_QUEUE,
} from '../domain/webhooks/deliveries.ts';
import { DEFAULT_WEBHOOK_RETRY_POLICY, type WebhookRetryPolicy } from '../domain/webhooks/retry-policy.ts';
import { createWebhookSender, type WebhookSender } from '../domain/webhooks/sender.ts';
import { queueJob } from './queue-job.ts';

/**
 * What the delivery worker uses. Production keeps the defaults; tests shorten `retryPolicy` or set a
 * `sender` (null: the default from domain/webhooks/sender.ts, chosen from the config).
 */
export const webhookDeliverySettings: {
  retryPolicy: WebhookRetryPolicy;
  sender: WebhookSender | null;
  /** Null: ENDPOINT_FAILURE_LIMIT (domain/webhooks/endpoint-health.ts). */
  endpointFailureLimit: number | null;
} = {
  retryPolicy: { ...DEFAULT_WEBHOOK_RETRY_POLICY },
  sender: null,
  endpointFailureLimit: null,
};

const TryData = z.object({ webhook_id: z.string().min(1), attempt: z.int().min(1) });

/**
 * One try of one webhook delivery. Retries of a failed try are new queue jobs scheduled by the domain
 * (startAfter, jittered backoff); pg-boss's own retries only cover a worker that failed to record its try
 * (database trouble), and a repeated try that is no longer due changes nothing.
 */
export const webhookDelivery = queueJob({
  name: WEBHOOK_DELIVERY_QUEUE,
  schema: TryData,
  options: { retryLimit: 3, retryDelay: 30, retryBackoff: true, expireInSeconds: 300 },
  // A slow receiver (up to 15 s a try) must not hold up every other delivery.
  workers: 2,
  pollingIntervalSeconds: 1,
  handler: async (services, { webhook_id: webhookId, attempt }) => {
    const settings: DeliverySettings = {
      send: webhookDeliverySettings.sender ?? createWebhookSender(services.config),
      policy: webhookDeliverySettings.retryPolicy,
      endpointFailureLimit: webhookDeliverySettings.endpointFailureLimit ?? undefined,
    };
    const outcome = await deliverWebhookTry(services, { webhookId, attempt }, settings);
    services.metrics.webhookAttempts.inc({ outcome: outcome.kind });
    services.log.info('webhook delivery', { webhook_id: webhookId, attempt, ...outcome });
  },
});
