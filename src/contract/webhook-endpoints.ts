import { z } from 'zod';
import { HttpUrl, Timestamp } from './common.ts';
import { defineEndpoint } from './endpoint.ts';
import { WebhookDelivery, WebhookRedelivery } from './jobs.ts';

/**
 * Team-level webhook endpoints (ours, issue #33): besides a job's own `options.webhook_url`, a team lists
 * receivers that get the events of every job of the team, filtered by type, signed with the team's
 * secret, retried and logged like a job's webhook.
 */

/** Events an endpoint can subscribe to: a job's end, and the team's budget alerts. */
export const WEBHOOK_ENDPOINT_EVENTS = [
  'job.completed',
  'job.failed',
  'job.cancelled',
  'budget.threshold_reached',
] as const;
export const WebhookEndpointEvent = z.enum(WEBHOOK_ENDPOINT_EVENTS).meta({ id: 'WebhookEndpointEvent' });
export type WebhookEndpointEvent = z.infer<typeof WebhookEndpointEvent>;

/** Limits of endpoints (the server's domain code holds the same numbers). */
export const WEBHOOK_ENDPOINT_LIMITS = {
  perTeam: 20,
  descriptionMax: 500,
  /** Deliveries in a row ending failed (after all their retries) before an endpoint is disabled. */
  failuresBeforeDisable: 20,
  /** How far back a recovery reaches: missed events older than this are not sent again. */
  recoverWindowDays: 7,
  /** Missed events one recovery queues at most (the oldest first); asking again sends the next ones. */
  recoverMaxPerRequest: 500,
} as const;

export const WebhookEndpointId = z
  .string()
  .regex(/^we_[0-9a-f]{24}$/, { message: 'must have the form we_<24 hex characters>' });

export const WebhookEndpoint = z
  .object({
    id: WebhookEndpointId,
    url: z.string(),
    description: z.string(),
    events: z.array(WebhookEndpointEvent),
    enabled: z.boolean(),
    disabled_reason: z.string().nullable().meta({
      description:
        'Why the server turned it off (a run of failed deliveries, or the receiver answered 410 Gone); null when on or turned off by a person.',
    }),
    disabled_at: Timestamp.nullable(),
    failure_streak: z.int().min(0).meta({ description: 'Deliveries in a row that ended failed.' }),
    last_delivery_at: Timestamp.nullable().meta({ description: 'When the latest delivery ended.' }),
    last_delivery_status: z.enum(['delivered', 'failed']).nullable(),
    missed_events: z
      .int()
      .min(0)
      .meta({
        description: `Events of the last ${WEBHOOK_ENDPOINT_LIMITS.recoverWindowDays} days, of the types it subscribes to, that were not delivered because it was off (or its receiver answered 410 Gone): what \`recoverWebhookEndpoint\` would send.`,
      }),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'WebhookEndpoint' });
export type WebhookEndpoint = z.infer<typeof WebhookEndpoint>;

const Events = z
  .array(WebhookEndpointEvent)
  .min(1, { message: 'choose at least one event' })
  .max(WEBHOOK_ENDPOINT_EVENTS.length)
  .transform((events) => [...new Set(events)]);
const Description = z.string().trim().max(WEBHOOK_ENDPOINT_LIMITS.descriptionMax);

export const CreateWebhookEndpointRequest = z
  .object({
    url: HttpUrl.meta({ description: 'The receiver: the same rules as `webhook_url`.' }),
    description: Description.default(''),
    events: Events,
    enabled: z.boolean().default(true),
  })
  .meta({ id: 'CreateWebhookEndpointRequest' });

export const UpdateWebhookEndpointRequest = z
  .object({
    url: HttpUrl.optional(),
    description: Description.optional(),
    events: Events.optional(),
    enabled: z.boolean().optional().meta({
      description: 'true turns it back on (clearing the failure streak and the reason it was turned off).',
    }),
  })
  .meta({ id: 'UpdateWebhookEndpointRequest' });

const Params = z.object({ id: WebhookEndpointId });

export const listWebhookEndpoints = defineEndpoint({
  operationId: 'listWebhookEndpoints',
  method: 'GET',
  path: '/v2/webhook-endpoints',
  host: 'api',
  tag: 'Account',
  summary: 'List webhook endpoints',
  description: "The team's webhook endpoints, oldest first. Every member may read them.",
  auth: 'any',
  responses: {
    200: { description: 'The endpoints.', schema: z.object({ data: z.array(WebhookEndpoint) }) },
  },
  errors: [],
});

export const createWebhookEndpoint = defineEndpoint({
  operationId: 'createWebhookEndpoint',
  method: 'POST',
  path: '/v2/webhook-endpoints',
  host: 'api',
  tag: 'Account',
  summary: 'Add a webhook endpoint',
  description: `Owners and managers. The events chosen, of every job of the team, are sent to \`url\`, signed with the team's webhook secret and retried like a job's webhook. At most ${WEBHOOK_ENDPOINT_LIMITS.perTeam} per team (409 beyond). A blocked or non-public host is 403. After ${WEBHOOK_ENDPOINT_LIMITS.failuresBeforeDisable} deliveries in a row end failed (or one answers 410 Gone) the endpoint is disabled and the team's owners are mailed.`,
  auth: 'any',
  body: CreateWebhookEndpointRequest,
  responses: { 201: { description: 'The endpoint.', schema: WebhookEndpoint } },
  errors: ['invalid_request', 'forbidden', 'conflict'],
});

export const getWebhookEndpoint = defineEndpoint({
  operationId: 'getWebhookEndpoint',
  method: 'GET',
  path: '/v2/webhook-endpoints/{id}',
  host: 'api',
  tag: 'Account',
  summary: 'Get a webhook endpoint',
  description: 'One endpoint of the team.',
  auth: 'any',
  params: Params,
  responses: { 200: { description: 'The endpoint.', schema: WebhookEndpoint } },
  errors: ['not_found'],
});

export const updateWebhookEndpoint = defineEndpoint({
  operationId: 'updateWebhookEndpoint',
  method: 'PATCH',
  path: '/v2/webhook-endpoints/{id}',
  host: 'api',
  tag: 'Account',
  summary: 'Edit a webhook endpoint',
  description:
    'Owners and managers. Changes the fields given; `enabled: true` re-enables a disabled endpoint. Deliveries already queued keep their URL.',
  auth: 'any',
  params: Params,
  body: UpdateWebhookEndpointRequest,
  responses: { 200: { description: 'The endpoint.', schema: WebhookEndpoint } },
  errors: ['invalid_request', 'forbidden', 'not_found'],
});

export const deleteWebhookEndpoint = defineEndpoint({
  operationId: 'deleteWebhookEndpoint',
  method: 'DELETE',
  path: '/v2/webhook-endpoints/{id}',
  host: 'api',
  tag: 'Account',
  summary: 'Delete a webhook endpoint',
  description: 'Owners and managers. Its pending deliveries are dropped, and its delivery log with it.',
  auth: 'any',
  params: Params,
  responses: { 204: { description: 'Deleted.' } },
  errors: ['forbidden', 'not_found'],
});

export const listWebhookEndpointDeliveries = defineEndpoint({
  operationId: 'listWebhookEndpointDeliveries',
  method: 'GET',
  path: '/v2/webhook-endpoints/{id}/deliveries',
  host: 'api',
  tag: 'Account',
  summary: "An endpoint's recent deliveries",
  description:
    "The tries of its latest 50 deliveries, newest first, each with what it sent and what the receiver answered (the same shape as a job's webhook deliveries).",
  auth: 'any',
  params: Params,
  responses: {
    200: { description: 'The tries.', schema: z.object({ data: z.array(WebhookDelivery) }) },
  },
  errors: ['not_found'],
});

// ---------------------------------------------------------------------------------------------
// Sending again: one delivery on demand, and the events missed while an endpoint was off
// ---------------------------------------------------------------------------------------------

const DeliveryParams = z.object({
  id: WebhookEndpointId,
  webhook_id: z
    .string()
    .regex(/^msg_[0-9a-f]{32}$/, { message: 'must have the form msg_<32 hex characters>' })
    .meta({ description: 'The delivery: its `webhook-id` header.' }),
});

export const redeliverWebhookEndpointDelivery = defineEndpoint({
  operationId: 'redeliverWebhookEndpointDelivery',
  method: 'POST',
  path: '/v2/webhook-endpoints/{id}/deliveries/{webhook_id}/redeliver',
  host: 'api',
  tag: 'Account',
  summary: "Send an endpoint's delivery again",
  description:
    "Owners and managers. Queues the next try of one delivery of the endpoint now, to the endpoint's current URL: the same `webhook-id` (receivers deduplicate on it) and payload, signed afresh; if it fails, the retry policy's remaining tries follow. 404 when the endpoint or the delivery is not the team's, 409 while the delivery is still in progress or the endpoint is disabled. The try is listed by `listWebhookEndpointDeliveries`.",
  auth: 'any',
  params: DeliveryParams,
  responses: { 202: { description: 'Queued.', schema: WebhookRedelivery } },
  errors: ['forbidden', 'not_found', 'conflict'],
});

const windowMs = WEBHOOK_ENDPOINT_LIMITS.recoverWindowDays * 86_400_000;

export const RecoverWebhookEndpointRequest = z
  .object({
    since: Timestamp.optional()
      .refine((since) => since === undefined || Date.parse(since) >= Date.now() - windowMs, {
        message: `must be within the last ${WEBHOOK_ENDPOINT_LIMITS.recoverWindowDays} days`,
      })
      .meta({
        description: `Send the missed events from this instant on; at most ${WEBHOOK_ENDPOINT_LIMITS.recoverWindowDays} days ago, which is also the default.`,
      }),
  })
  .meta({ id: 'RecoverWebhookEndpointRequest' });

export const WebhookEndpointRecovery = z
  .object({
    queued: z.int().min(0).meta({ description: 'Missed events queued by this request, oldest first.' }),
    remaining: z
      .int()
      .min(0)
      .meta({
        description: `Missed events of the window still not queued (beyond the ${WEBHOOK_ENDPOINT_LIMITS.recoverMaxPerRequest} of one request): ask again to queue them.`,
      }),
    since: Timestamp.meta({ description: 'The start of the window used.' }),
  })
  .meta({ id: 'WebhookEndpointRecovery' });
export type WebhookEndpointRecovery = z.infer<typeof WebhookEndpointRecovery>;

export const recoverWebhookEndpoint = defineEndpoint({
  operationId: 'recoverWebhookEndpoint',
  method: 'POST',
  path: '/v2/webhook-endpoints/{id}/recover',
  host: 'api',
  tag: 'Account',
  summary: 'Send the events an endpoint missed',
  description: `Owners and managers. Queues the events the endpoint missed while it was disabled (by the server or by hand; its \`missed_events\`): those since \`since\` (at most ${WEBHOOK_ENDPOINT_LIMITS.recoverWindowDays} days back, the default), of the types it subscribes to now, oldest first, at most ${WEBHOOK_ENDPOINT_LIMITS.recoverMaxPerRequest} per request. Each is sent to the endpoint's current URL with its own \`webhook-id\` and payload, signed afresh, and retried like any delivery. Each missed event is queued once: asking again queues only what is left (\`queued: 0\` when nothing is). 409 while the endpoint is disabled (turn it on first).`,
  auth: 'any',
  params: Params,
  body: RecoverWebhookEndpointRequest,
  responses: { 202: { description: 'Queued.', schema: WebhookEndpointRecovery } },
  errors: ['invalid_request', 'forbidden', 'not_found', 'conflict'],
});
