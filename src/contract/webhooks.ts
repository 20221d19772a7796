import { z } from 'zod';
import { HttpUrl, Timestamp } from './common.ts';
import { defineEndpoint } from './endpoint.ts';
import { Job } from './jobs.ts';

/** Standard Webhooks header names (api-extensions.md). */
export const WEBHOOK_HEADERS = {
  id: 'webhook-id',
  timestamp: 'webhook-timestamp',
  signature: 'webhook-signature',
} as const;

export const WEBHOOK_EVENT_TYPES = ['job.completed', 'job.failed', 'job.cancelled'] as const;
export const WebhookEventType = z.enum(WEBHOOK_EVENT_TYPES).meta({ id: 'WebhookEventType' });

/**
 * Body of a webhook call (api-extensions.md): sent to `options.webhook_url` when a job ends, signed with
 * `webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">` under the team's secret.
 * Not an endpoint of this API; exported for documentation, the sender and tests.
 */
export const WebhookEvent = z
  .object({
    type: WebhookEventType,
    timestamp: Timestamp,
    data: Job,
  })
  .meta({ id: 'WebhookEvent' });
export type WebhookEvent = z.infer<typeof WebhookEvent>;

/** `whsec_` followed by base64 key material. */
export const WebhookSecretValue = z
  .string()
  .regex(/^whsec_[A-Za-z0-9+/]+={0,2}$/, { message: 'must be whsec_<base64>' });

export const WebhookSecret = z
  .object({
    secret: WebhookSecretValue,
    created_at: Timestamp.meta({ description: 'When this secret was minted (last rotation).' }),
  })
  .meta({ id: 'WebhookSecret' });

export const getWebhookSecret = defineEndpoint({
  operationId: 'getWebhookSecret',
  method: 'GET',
  path: '/v2/webhooks/secret',
  host: 'api',
  tag: 'Account',
  summary: 'Webhook signing secret',
  description: "The team's secret for verifying webhook signatures (created on first read). Never cached.",
  auth: 'any',
  responses: { 200: { description: 'The secret.', schema: WebhookSecret } },
  errors: [],
  noStore: true,
});

/** Bounds of a rotation's overlap (issue #33); the server's domain code holds the same numbers. */
export const WEBHOOK_SECRET_OVERLAP = { defaultSeconds: 86_400, maxSeconds: 604_800 } as const;

export const RotateWebhookSecretQuery = z
  .object({
    overlap_seconds: z.coerce
      .number()
      .int()
      .min(0)
      .max(WEBHOOK_SECRET_OVERLAP.maxSeconds)
      .default(WEBHOOK_SECRET_OVERLAP.defaultSeconds)
      .meta({
        description:
          'For how long webhooks stay signed with the replaced secret too (one signature under each), so receivers can switch without rejecting a delivery. 0 ends the old secret now; at most 604800 (a week); 86400 (a day) when absent.',
      }),
  })
  .meta({ id: 'RotateWebhookSecretQuery' });

export const RotatedWebhookSecret = z
  .object({
    secret: WebhookSecretValue.meta({ description: 'The new secret. Shown here once: store it now.' }),
    created_at: Timestamp.meta({ description: 'When this secret was minted.' }),
    previous_secret_expires_at: Timestamp.nullable().meta({
      description: 'Until when the replaced secret still signs webhooks too; null when it stopped at once.',
    }),
  })
  .meta({ id: 'RotatedWebhookSecret' });
export type RotatedWebhookSecret = z.infer<typeof RotatedWebhookSecret>;

export const rotateWebhookSecret = defineEndpoint({
  operationId: 'rotateWebhookSecret',
  method: 'POST',
  path: '/v2/webhooks/secret/rotate',
  host: 'api',
  tag: 'Account',
  summary: 'Rotate the webhook secret',
  description:
    'Replaces the secret; webhooks sent from now on are signed with the new one and, during `overlap_seconds`, with the replaced one too (two space-separated signatures in `webhook-signature`). Rotating during an overlap ends the oldest secret. Never cached.',
  auth: 'session',
  query: RotateWebhookSecretQuery,
  responses: { 200: { description: 'The new secret.', schema: RotatedWebhookSecret } },
  errors: ['forbidden', 'invalid_request'],
  noStore: true,
});

// ---------------------------------------------------------------------------------------------
// Test events (ours, issue #33): one signed request to a URL, to check a receiver before a job calls it
// ---------------------------------------------------------------------------------------------

export const WEBHOOK_TEST_EVENT_TYPE = 'webhook.test';

/** Body of a test event: signed exactly like a job's event, with its own type and no job. */
export const WebhookTestEvent = z
  .object({
    type: z.literal(WEBHOOK_TEST_EVENT_TYPE),
    timestamp: Timestamp,
    data: z.object({
      team_id: z.string(),
      message: z.string(),
    }),
  })
  .meta({ id: 'WebhookTestEvent' });
export type WebhookTestEvent = z.infer<typeof WebhookTestEvent>;

export const WebhookTestRequest = z
  .object({ url: HttpUrl.meta({ description: 'The receiver to call: the same rules as `webhook_url`.' }) })
  .meta({ id: 'WebhookTestRequest' });

export const WebhookTestResult = z
  .object({
    webhook_id: z.string().meta({ description: 'The `webhook-id` header sent.' }),
    url: z.string(),
    delivered: z.boolean().meta({ description: 'True when the receiver answered 2xx.' }),
    response_status: z
      .int()
      .nullable()
      .meta({ description: 'Null when no answer came (network error, timeout).' }),
    error: z
      .string()
      .nullable()
      .meta({ description: 'Why it was not delivered, in words; null when delivered.' }),
    duration_ms: z.int().min(0),
    sent_at: Timestamp,
  })
  .meta({ id: 'WebhookTestResult' });
export type WebhookTestResult = z.infer<typeof WebhookTestResult>;

export const sendWebhookTestEvent = defineEndpoint({
  operationId: 'sendWebhookTestEvent',
  method: 'POST',
  path: '/v2/webhooks/test',
  host: 'api',
  tag: 'Account',
  summary: 'Send a test event',
  description:
    "Sends one `webhook.test` event to `url` now, signed with the team's secret like a job's event, and answers what the receiver said. One try, no retries, not listed among a job's deliveries. A blocked or non-public host is 403.",
  auth: 'any',
  body: WebhookTestRequest,
  responses: { 200: { description: 'What happened.', schema: WebhookTestResult } },
  errors: ['invalid_request', 'forbidden', 'rate_limited'],
});
