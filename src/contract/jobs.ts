import { z } from 'zod';
import {
  Cents,
  commaList,
  commaListOrNone,
  HttpUrl,
  PageQuery,
  pageOf,
  Timestamp,
  ToolKey,
} from './common.ts';
import { defineEndpoint } from './endpoint.ts';
import { RunEstimate } from './run-times.ts';
import { Transcript } from './transcript.ts';
import {
  ANALYTICS_JOB_STATUSES,
  ID_MAX,
  isTerminalJobStatus,
  JOB_ID,
  JOB_STATUSES,
  KEY_ID,
  RUN_SOURCES,
  TERMINAL_JOB_STATUSES,
} from './values.ts';
import { VideoAnalysisReport } from './video-analysis.ts';

export { ANALYTICS_JOB_STATUSES, isTerminalJobStatus, JOB_STATUSES, RUN_SOURCES, TERMINAL_JOB_STATUSES };

export const JobStatus = z.enum(JOB_STATUSES).meta({ id: 'JobStatus' });
export type JobStatus = z.infer<typeof JobStatus>;

export const AnalyticsJobStatus = z.enum(ANALYTICS_JOB_STATUSES).meta({ id: 'AnalyticsJobStatus' });
export type AnalyticsJobStatus = z.infer<typeof AnalyticsJobStatus>;

export const RunSource = z.enum(RUN_SOURCES).meta({ id: 'RunSource' });
export type RunSource = z.infer<typeof RunSource>;

/** Job ids start with `job_` (spec 2.1 and 4.4: `id` matches `^job_`). */
export const JobId = z
  .string()
  .max(ID_MAX)
  .regex(JOB_ID, { message: 'must start with job_' })
  .meta({ description: 'Job id, starts with `job_`.' });

/** API key ids: `key_` followed by opaque characters (our choice; the spec does not show them). */
export const KeyId = z.string().max(ID_MAX).regex(KEY_ID, { message: 'must be an API key id (key_...)' });

/** `<provider>:<model>`, the provider-pinned form (spec 2.1, 2.9). */
export const ProviderModel = z
  .string()
  .max(200)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*:.+$/, { message: 'must have the form <provider>:<model>' })
  .meta({ description: 'Provider-pinned model, form `<provider>:<model>`.' });

/**
 * One output of a job (spec 2.2). Nullability is ours: `url`, `file_id` and `size_bytes` are null only for
 * inline results (a video analysis report, where no file is created, or a transcript);
 * `thumbnail_url` is null for media without a visual preview.
 */
export const OutputEntry = z
  .object({
    url: z.string().nullable().meta({ description: 'Stable public URL of the output file.' }),
    file_id: z.string().nullable(),
    media_type: z.string().meta({ description: 'MIME type.' }),
    size_bytes: z.int().min(0).nullable(),
    thumbnail_url: z.string().nullable(),
    data: z.union([VideoAnalysisReport, Transcript]).optional().meta({
      description:
        'Inline result: the report of a video analysis, or the transcript of a transcription (outputs[0]).',
    }),
  })
  .meta({ id: 'OutputEntry' });

/** Output envelope (spec 2.2). Read the result from `outputs[0]`. */
export const OutputEnvelope = z
  .object({
    version: z.literal('v1'),
    outputs: z.array(OutputEntry),
  })
  .meta({ id: 'OutputEnvelope' });
export type OutputEnvelope = z.infer<typeof OutputEnvelope>;

/**
 * Error of a failed (or cancelled) job. The spec does not show it; ours is `{ code, message }`, with codes
 * such as `provider_error`, `provider_timeout`, `invalid_input`, `cancelled`, `internal_error`.
 */
export const JobError = z
  .object({
    code: z.string().meta({ description: 'Stable, machine-readable code.' }),
    message: z.string(),
  })
  .meta({ id: 'JobError' });

/** Pricing object on a job (spec 2.3). */
export const JobPricing = z
  .object({
    estimated: Cents.meta({ description: 'Estimated credits.' }),
    actual: Cents.nullable().meta({ description: 'Credits charged; null until the job settles.' }),
    billing: z
      .string()
      .meta({ description: 'How the job is billed, for example `per_image` or `per_second`.' }),
    cached: z.boolean().nullable().meta({ description: 'True when served from the result cache (free).' }),
    billed_units: z
      .record(z.string(), z.number().min(0))
      .nullable()
      .meta({ description: 'Counts keyed by unit name (for example images, seconds); null until known.' }),
    pricing_id: z.string(),
  })
  .meta({ id: 'JobPricing' });

/** Absolute lifecycle URLs of a job (spec 2.1). */
export const JobUrls = z
  .object({ self: HttpUrl, status: HttpUrl, refresh: HttpUrl, cancel: HttpUrl, retry: HttpUrl })
  .meta({ id: 'JobUrls' });

/**
 * Where a job's time went (ours): each moment it reached, null until it did. Queued here is `started_at`
 * minus `created_at`; at an external provider, `submitted_at` to `provider_started_at` is its queue
 * there and on to `provider_finished_at` its run; from there to `completed_at` we download and store.
 */
export const JobTimeline = z
  .object({
    created_at: Timestamp,
    started_at: Timestamp.nullable().meta({ description: 'A worker took the job.' }),
    submitted_at: Timestamp.nullable().meta({ description: 'The external provider accepted it.' }),
    provider_started_at: Timestamp.nullable().meta({
      description: 'The provider was first seen running it.',
    }),
    provider_finished_at: Timestamp.nullable().meta({ description: 'The provider was seen done with it.' }),
    completed_at: Timestamp.nullable(),
  })
  .meta({ id: 'JobTimeline' });
export type JobTimeline = z.infer<typeof JobTimeline>;

/**
 * A job (spec 2.1, every field). Nullability beyond the spec follows the lifecycle it describes:
 * `started_at`, `completed_at`, `provider_status` and `provider_job_id` are null until the state that sets
 * them. The fields after `urls` are ours (filters and the console need them).
 */
export const Job = z
  .object({
    id: JobId,
    status: JobStatus,
    tool: ToolKey.meta({ description: 'Video analysis jobs have tool `video` and model `video-analyze`.' }),
    input: z.record(z.string(), z.unknown()).meta({ description: 'The request body as submitted.' }),
    output: OutputEnvelope.nullable().meta({ description: 'Present only when status is `completed`.' }),
    error: JobError.nullable().meta({ description: 'Null unless the job failed (or was cancelled).' }),
    progress_message: z.string().nullable(),
    progress: z.number().min(0).max(1).nullable().meta({ description: 'Fraction 0..1.' }),
    progress_metadata: z.record(z.string(), z.unknown()),
    estimated_duration_ms: z.int().min(0),
    estimated_cost_cents: Cents,
    actual_cost_cents: Cents.nullable(),
    pricing: JobPricing,
    provider: z.string().meta({ description: 'Provider id.' }),
    provider_model: ProviderModel,
    provider_status: z.string().nullable().meta({ description: "The provider's raw status string." }),
    provider_job_id: z.string().nullable(),
    created_at: Timestamp,
    started_at: Timestamp.nullable(),
    completed_at: Timestamp.nullable(),
    urls: JobUrls.optional().meta({ description: 'Lifecycle URLs; always present on creation responses.' }),
    model: z.string().meta({ description: 'The model as requested (before provider pinning).' }),
    updated_at: Timestamp,
    folder_id: z.string().nullable().meta({ description: 'Folder the outputs are filed into.' }),
    api_key_id: z
      .string()
      .nullable()
      .meta({ description: 'The API key that started the job; null from the app.' }),
    person_id: z.string().nullable().meta({ description: 'The person who started the job, when known.' }),
    source: RunSource,
    retry_of: z
      .string()
      .nullable()
      .meta({ description: 'The job this one retries (POST /jobs/{id}/retry).' }),
    estimated_run: RunEstimate.nullable().meta({
      description:
        'The expected run this job was given when created: `estimated_duration_ms` is its `p50_ms`. Null on jobs made before this field.',
    }),
    timeline: JobTimeline,
    provider_logs: z.string().nullable().meta({
      description: "The tail of the external provider's log of the job (fal, Replicate); null for others.",
    }),
  })
  .meta({ id: 'Job' });
export type Job = z.infer<typeof Job>;

/** Light view for polling (`GET /jobs/{id}/status`): enough to drive a progress bar and stop at the end. */
export const JobStatusView = z
  .object({
    id: JobId,
    status: JobStatus,
    terminal: z.boolean().meta({ description: 'True for `completed`, `failed` and `cancelled`.' }),
    progress: z.number().min(0).max(1).nullable(),
    progress_message: z.string().nullable(),
    provider_status: z.string().nullable(),
    output: OutputEnvelope.nullable(),
    error: JobError.nullable(),
    updated_at: Timestamp,
    started_at: Timestamp.nullable().meta({
      description: 'A worker took the job: a live timer reads queue time and run time apart from it.',
    }),
    completed_at: Timestamp.nullable(),
  })
  .meta({ id: 'JobStatusView' });
export type JobStatusView = z.infer<typeof JobStatusView>;

/**
 * Job price breakdown (spec 2.4). `actual_cost_cents` is null until the job settles (as on the job itself);
 * `billed_units` is empty until then. `billing` and `cached` are ours.
 */
export const JobPrice = z
  .object({
    job_id: JobId,
    status: JobStatus,
    model: z.string(),
    tool: ToolKey,
    pricing_id: z.string(),
    estimated_cost_cents: Cents,
    actual_cost_cents: Cents.nullable(),
    billed_units: z.record(z.string(), z.number().min(0)),
    billing: z.string(),
    cached: z.boolean().nullable(),
  })
  .meta({ id: 'JobPrice' });
export type JobPrice = z.infer<typeof JobPrice>;

/** How many bytes of a request's or an answer's body the delivery log keeps (issue #33). */
export const DELIVERY_LOG_BODY_BYTES = 4096;

/** What one try sent (issue #33): the signatures are there, the secret never is. */
export const WebhookTryRequest = z
  .object({
    url: z.string(),
    headers: z.record(z.string(), z.string()).meta({
      description: 'The headers sent, `webhook-signature` included (an HMAC: it does not reveal the secret).',
    }),
    body: z.string().meta({ description: `The body's first ${DELIVERY_LOG_BODY_BYTES} bytes.` }),
    body_truncated: z.boolean(),
  })
  .meta({ id: 'WebhookTryRequest' });

/** What the receiver answered to one try (issue #33). */
export const WebhookTryResponse = z
  .object({
    status: z.int(),
    headers: z.record(z.string(), z.string()),
    body: z.string().meta({ description: `The body's first ${DELIVERY_LOG_BODY_BYTES} bytes, as text.` }),
    body_truncated: z.boolean(),
  })
  .meta({ id: 'WebhookTryResponse' });

/** One attempt to deliver a job's webhook (Standard Webhooks; api-extensions.md). */
export const WebhookDelivery = z
  .object({
    id: z.string().meta({ description: 'Id of this attempt.' }),
    webhook_id: z
      .string()
      .meta({ description: 'The `webhook-id` header: the same for every attempt of one event.' }),
    job_id: JobId.nullable().meta({
      description: 'Null for a team event that is not about a job (a budget alert).',
    }),
    endpoint_id: z
      .string()
      .nullable()
      .optional()
      .meta({ description: "The team webhook endpoint it went to; null for the job's own `webhook_url`." }),
    event_type: z.enum(['job.completed', 'job.failed', 'job.cancelled', 'budget.threshold_reached']),
    url: z.string(),
    attempt: z.int().min(1),
    status: z.enum(['pending', 'succeeded', 'failed']),
    response_status: z.int().nullable().meta({ description: 'HTTP status the receiver answered, if any.' }),
    error: z.string().nullable().meta({ description: 'Why the attempt failed (timeout, refused, non-2xx).' }),
    duration_ms: z.int().min(0).nullable(),
    created_at: Timestamp,
    next_attempt_at: Timestamp.nullable().meta({
      description: 'When the next retry is due; null when none.',
    }),
    request: WebhookTryRequest.nullable().optional().meta({
      description: 'What this try sent; null when it was not sent (still queued, or stopped before sending).',
    }),
    response: WebhookTryResponse.nullable().optional().meta({
      description: 'What the receiver answered; null when no answer came (then `error` says why).',
    }),
  })
  .meta({ id: 'WebhookDelivery' });
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

const FilterModel = z.string().min(1).max(200);
const FilterFolder = z.uuid({ message: 'must be a folder id' });
const FilterErrorCode = z
  .string()
  .regex(/^[a-z0-9_.-]{1,100}$/, { message: 'must be an error code, for example provider_timeout' });

/**
 * Filters of `GET /jobs`. Lists are comma-separated (max 4000 characters, 50 values); `folder` and `key`
 * also take `none` (jobs outside any folder, jobs started from the app without a key).
 */
export const JobListQuery = PageQuery.extend({
  status: commaList(JobStatus).optional(),
  tool: commaList(ToolKey).optional(),
  model: commaList(FilterModel).optional(),
  folder: commaListOrNone(FilterFolder).optional(),
  key: commaListOrNone(KeyId).optional(),
  error_code: commaList(FilterErrorCode).optional().meta({
    description:
      "Jobs whose `error.code` is one of these (the codes of `GET /v2/analytics/performance`'s top errors); `unknown` also matches failed jobs without a code.",
  }),
  created_from: Timestamp.optional().meta({ description: 'Created at or after this instant.' }),
  created_to: Timestamp.optional().meta({ description: 'Created before this instant (exclusive).' }),
  updated_since: Timestamp.optional().meta({
    description: 'Only jobs updated at or after this instant (for incremental refresh of a feed).',
  }),
});
export type JobListQuery = z.infer<typeof JobListQuery>;

/**
 * A page of jobs, with the server's clock when it was read (ours): a client keeping a feed current asks
 * `updated_since=<server_time>` next time and gets only what changed since, without trusting its own
 * clock. A write that began before the read may commit after it with an earlier `updated_at`, so ask
 * from a little earlier (the console uses 2 s); rows seen twice are simply the same row.
 */
export const JobPage = pageOf(Job)
  .extend({
    // Optional: the console also talks to v2 servers that do not send it (it then syncs from the rows).
    server_time: Timestamp.optional().meta({
      description:
        "The server's clock when this page was read. Pass it (less a couple of seconds) as `updated_since` to get what changed since.",
    }),
  })
  .meta({ id: 'JobPage' });

export const JobParams = z.object({ id: JobId });

/** Error codes of the operations that create a job (spec 4.1), shared with the generation module. */
export const JOB_CREATION_ERRORS = [
  'invalid_request',
  'insufficient_balance',
  'spend_limit_exceeded',
  'forbidden',
  'model_not_found',
  'model_retired',
  'idempotency_key_reused',
  'conflict',
  'rate_limited',
  'pricing_unavailable',
  'provider_unavailable',
] as const;

export const listJobs = defineEndpoint({
  operationId: 'listJobs',
  method: 'GET',
  path: '/v2/jobs',
  host: 'api',
  tag: 'Jobs',
  summary: 'List jobs',
  description: 'Newest first, with filters. Comma-separated lists as in analytics.',
  auth: 'any',
  query: JobListQuery,
  responses: { 200: { description: 'A page of jobs.', schema: JobPage } },
  errors: [],
});

export const getJob = defineEndpoint({
  operationId: 'getJob',
  method: 'GET',
  path: '/v2/jobs/{id}',
  host: 'api',
  tag: 'Jobs',
  summary: 'Get a job',
  description: 'Poll until status is terminal, then read `output.outputs[0].url`.',
  auth: 'any',
  params: JobParams,
  responses: { 200: { description: 'The job.', schema: Job } },
  errors: ['not_found'],
});

export const getJobStatus = defineEndpoint({
  operationId: 'getJobStatus',
  method: 'GET',
  path: '/v2/jobs/{id}/status',
  host: 'api',
  tag: 'Jobs',
  summary: 'Job status (light)',
  description: 'A small view for polling: status, progress and, once terminal, the output or the error.',
  auth: 'any',
  params: JobParams,
  responses: { 200: { description: 'The status.', schema: JobStatusView } },
  errors: ['not_found'],
});

export const refreshJob = defineEndpoint({
  operationId: 'refreshJob',
  method: 'POST',
  path: '/v2/jobs/{id}/refresh',
  host: 'api',
  tag: 'Jobs',
  summary: 'Re-poll the provider',
  description:
    'No body. Forces a re-poll of the provider and mirrors its latest state onto the job; the state is unchanged or advanced.',
  auth: 'any',
  params: JobParams,
  responses: { 200: { description: 'The refreshed job.', schema: Job } },
  errors: ['not_found', 'rate_limited', 'provider_unavailable'],
});

export const cancelJob = defineEndpoint({
  operationId: 'cancelJob',
  method: 'POST',
  path: '/v2/jobs/{id}/cancel',
  host: 'api',
  tag: 'Jobs',
  summary: 'Cancel a job',
  description:
    'No body. A queued job is cancelled at once; a submitting or running job is cancelled at the provider when it supports that, otherwise it stops being polled. Held credits are released and nothing is charged. Cancelling a cancelled job answers it unchanged; a completed or failed job answers 409 `conflict`.',
  auth: 'any',
  params: JobParams,
  responses: { 200: { description: 'The job, now `cancelled`.', schema: Job } },
  errors: ['not_found', 'conflict'],
});

export const retryJob = defineEndpoint({
  operationId: 'retryJob',
  method: 'POST',
  path: '/v2/jobs/{id}/retry',
  host: 'api',
  tag: 'Jobs',
  summary: 'Retry a job',
  description:
    'No body. Creates a new job with the same input, linked to the original by `retry_of`, priced and charged like any new job. Only `failed` and `cancelled` jobs can be retried (409 `conflict` otherwise). An `Idempotency-Key` makes the retry safe to repeat.',
  auth: 'any',
  params: JobParams,
  headers: z.object({
    'idempotency-key': z.string().min(1).max(255).optional(),
  }),
  responses: {
    202: { description: 'The new job (status `queued`).', schema: Job },
    200: { description: 'Idempotent replay: the job created by the first call with this key.', schema: Job },
  },
  errors: ['not_found', ...JOB_CREATION_ERRORS],
});

export const getJobPrice = defineEndpoint({
  operationId: 'getJobPrice',
  method: 'GET',
  path: '/v2/jobs/{id}/price',
  host: 'api',
  tag: 'Jobs',
  summary: 'Job price breakdown',
  auth: 'any',
  params: JobParams,
  responses: { 200: { description: 'The price breakdown.', schema: JobPrice } },
  errors: ['not_found'],
});

export const listJobWebhookDeliveries = defineEndpoint({
  operationId: 'listJobWebhookDeliveries',
  method: 'GET',
  path: '/v2/jobs/{id}/webhook-deliveries',
  host: 'api',
  tag: 'Jobs',
  summary: 'Webhook delivery attempts of a job',
  description:
    "Every attempt to call `options.webhook_url`, and the team's webhook endpoints about this job (`endpoint_id` set), newest first, each with what it sent and what the receiver answered (headers, status, the first 4096 bytes of each body, timing). Empty when no webhook was called.",
  auth: 'any',
  params: JobParams,
  responses: {
    200: { description: 'The attempts.', schema: z.object({ data: z.array(WebhookDelivery) }) },
  },
  errors: ['not_found'],
});

/** What a redelivery queued: the delivery (its `webhook-id`) and the number of its next try. */
export const WebhookRedelivery = z
  .object({
    webhook_id: z.string(),
    attempt: z.int().min(1).meta({ description: 'The number of the queued try.' }),
  })
  .meta({ id: 'WebhookRedelivery' });

export const redeliverJobWebhook = defineEndpoint({
  operationId: 'redeliverJobWebhook',
  method: 'POST',
  path: '/v2/jobs/{id}/webhook-deliveries/redeliver',
  host: 'api',
  tag: 'Jobs',
  summary: "Send a job's webhook again",
  description:
    "Queues the next try of the job's latest webhook event now: the same `webhook-id` and payload, signed afresh; if it fails, the retry policy's remaining tries follow. Lifts a 410 stop on that URL. 404 when the job had no webhook, 409 while its delivery is still in progress. The try is listed by `listJobWebhookDeliveries`.",
  auth: 'any',
  params: JobParams,
  responses: {
    202: { description: 'Queued.', schema: WebhookRedelivery },
  },
  errors: ['not_found', 'conflict'],
});

export const receiveProviderWebhook = defineEndpoint({
  operationId: 'receiveProviderWebhook',
  method: 'POST',
  path: '/api/provider-webhooks/{provider}/{job_id}',
  host: 'app',
  tag: 'Jobs',
  summary: "Receive an external provider's callback",
  description:
    "Where fal and Replicate call back when a job this server submitted finishes (only when the providers can reach PUBLIC_URL). The delivery must carry the provider's own signature over its raw body, with a fresh timestamp; anything else is refused with 401 and never acted upon. A delivery about a job that is not that provider's job answers 404.",
  auth: 'none',
  params: z.object({ provider: z.string().min(1).max(40), job_id: JobId }),
  responses: { 204: { description: 'Received; the job is finished or polled at once.' } },
  errors: ['unauthorized', 'not_found', 'service_unavailable'],
  internal: true,
});
