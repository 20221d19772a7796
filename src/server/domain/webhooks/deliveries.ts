import { createHash } from 'node:crypto';
import type pg from 'pg';
import type PgBoss from 'pg-boss';
import type { Job, WebhookDelivery } from '../../../contract/jobs.ts';
import { WebhookEvent } from '../../../contract/webhooks.ts';
import { namedStatements } from '../../db/named-statements.ts';
import { type Queryable, transaction } from '../../db/pool.ts';
import type { Services } from '../../services.ts';
import { type FolderViewer, inVisibleFolderSql, seesEveryFolder } from '../folders/folder-visibility.ts';
import { bodyHead, loggedResponseHeaders } from './delivery-log.ts';
import {
  type DisabledEndpoint,
  ENDPOINT_FAILURE_LIMIT,
  mailOwnersEndpointDisabled,
  recordEndpointOutcome,
} from './endpoint-health.ts';
import { retryDelayMs, type WebhookRetryPolicy } from './retry-policy.ts';
import { webhookSigningSecrets } from './secrets.ts';
import type { WebhookSender } from './sender.ts';
import { newWebhookId, signedWebhookHeaders } from './signature.ts';

/** The pg-boss queue that carries one job per delivery try (queue/webhook-delivery.ts works it). */
export const WEBHOOK_DELIVERY_QUEUE = 'webhook-delivery';

/** `job.completed`, `job.failed` or `job.cancelled`. */
export type WebhookEventType = WebhookEvent['type'];
/** A job's events, and the team events only team endpoints receive (a budget alert). */
export type DeliveryEventType = WebhookDelivery['event_type'];

export type DeliveryStatus = 'pending' | 'delivered' | 'failed' | 'stopped';

/** What a queued try carries: which delivery and which try (1-based) it is. */
export interface DeliveryTry {
  webhookId: string;
  attempt: number;
}

type BossServices = Pick<Services, 'db' | 'boss'>;

/**
 * The pg-boss job id of one try, derived from the delivery and the try number: sending the same try twice
 * inserts one queue job (pg-boss ignores a conflicting id), so duplicates never double a try.
 */
export function deliveryQueueJobId(webhookId: string, attempt: number, requeue?: string): string {
  const key = `webhook-delivery:${webhookId}:${attempt}${requeue ? `:${requeue}` : ''}`;
  const hex = createHash('sha256').update(key).digest('hex');
  // Shaped as a version-5-style UUID (pg-boss job ids are uuids).
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** Names one requeueing of a delivery (sent again on demand): the instant its row went back to `pending`. */
export const requeueKey = (at: Date): string => `requeued:${at.toISOString()}`;

/**
 * Queues try `attempt` on the caller's connection, so it commits (or not) with the state that asked for it.
 * `requeue` names a later queueing of a try already queued once (a stopped delivery sent again: its try
 * `attempt` ran and found the endpoint off), whose first queue job may still be kept by pg-boss and would
 * swallow a second one under the same id.
 */
export async function queueTry(
  boss: PgBoss,
  client: Queryable,
  webhookId: string,
  attempt: number,
  startAfter?: Date,
  requeue?: string,
): Promise<void> {
  const options: PgBoss.SendOptions = {
    id: deliveryQueueJobId(webhookId, attempt, requeue),
    db: namedStatements(client),
  };
  if (startAfter) options.startAfter = startAfter;
  await boss.send(WEBHOOK_DELIVERY_QUEUE, { webhook_id: webhookId, attempt }, options);
}

export interface EnqueueJobWebhookInput {
  teamId: string;
  jobId: string;
  url: string;
  type: WebhookEventType;
  /** The job as it is now (terminal): the event's `data`. */
  job: Job;
  /**
   * Optional: the job engine's own transaction, so the delivery and its first queued try commit together
   * with the terminal state. Without it this runs in a transaction of its own.
   */
  client?: pg.PoolClient;
}

export interface EnqueuedWebhook {
  webhookId: string;
  /** False when this job and event already had a delivery (a repeated call changes nothing). */
  created: boolean;
  status: DeliveryStatus;
}

/**
 * Records the webhook of a job's terminal state and queues its first try. Idempotent: one delivery per
 * (job, event type), however often it is called. A URL the team's receiver stopped with 410 Gone gets a
 * delivery that is `stopped` at once and is never called.
 */
export async function enqueueJobWebhook(
  services: BossServices,
  input: EnqueueJobWebhookInput,
): Promise<EnqueuedWebhook> {
  const work = async (client: pg.PoolClient): Promise<EnqueuedWebhook> => {
    const payload: WebhookEvent = { type: input.type, timestamp: new Date().toISOString(), data: input.job };
    const inserted = await client.query<{ webhook_id: string; status: DeliveryStatus }>(
      `INSERT INTO webhook_deliveries
         (webhook_id, team_id, job_id, event_type, url, payload, status, next_attempt_at)
       SELECT $1::text, $2::uuid, $3::text, $4::text, $5::text, $6::jsonb, s.status, CASE WHEN s.status = 'pending' THEN now() END
         FROM (SELECT CASE WHEN EXISTS (SELECT 1 FROM webhook_stopped_urls WHERE team_id = $2::uuid AND url = $5::text)
                      THEN 'stopped' ELSE 'pending' END AS status) s
       ON CONFLICT (job_id, event_type) WHERE endpoint_id IS NULL DO NOTHING
       RETURNING webhook_id, status`,
      [newWebhookId(), input.teamId, input.jobId, input.type, input.url, JSON.stringify(payload)],
    );
    const row = inserted.rows[0];
    if (!row) {
      const existing = await client.query<{ webhook_id: string; status: DeliveryStatus }>(
        'SELECT webhook_id, status FROM webhook_deliveries WHERE job_id = $1 AND event_type = $2 AND endpoint_id IS NULL',
        [input.jobId, input.type],
      );
      const found = existing.rows[0]!;
      return { webhookId: found.webhook_id, created: false, status: found.status };
    }
    if (row.status === 'pending') await queueTry(services.boss, client, row.webhook_id, 1);
    return { webhookId: row.webhook_id, created: true, status: row.status };
  };
  return input.client ? work(input.client) : transaction(services.db, work);
}

interface DeliveryRow {
  webhook_id: string;
  team_id: string;
  job_id: string | null;
  endpoint_id: string | null;
  /** For a delivery to a team endpoint: whether the endpoint is still on (null when it was deleted). */
  endpoint_enabled: boolean | null;
  event_type: DeliveryEventType;
  url: string;
  payload: unknown;
  status: DeliveryStatus;
  attempts: number;
}

/** The exact bytes sent: the stored event, its keys put back in the contract's order when it still parses. */
function eventBody(payload: unknown): string {
  const parsed = WebhookEvent.safeParse(payload);
  return JSON.stringify(parsed.success ? parsed.data : payload);
}

export function describeSendError(error: unknown, timeoutMs: number): string {
  if (error instanceof Error) {
    if (error.name === 'TimeoutError' || error.name === 'AbortError') return `timeout after ${timeoutMs} ms`;
    const cause = (error as Error & { cause?: unknown }).cause;
    if (cause instanceof Error) {
      const code = (cause as Error & { code?: unknown }).code;
      return typeof code === 'string' ? `${code}: ${cause.message}` : cause.message;
    }
    return error.message || error.name;
  }
  return String(error);
}

export type TryOutcome =
  | { kind: 'skipped'; reason: 'unknown_delivery' | 'not_due' }
  | { kind: 'delivered'; status: number }
  | { kind: 'stopped'; status: number | null }
  | { kind: 'retry'; status: number | null; error: string | null; nextAttemptAt: Date }
  | { kind: 'failed'; status: number | null; error: string | null };

export interface DeliverySettings {
  send: WebhookSender;
  policy: WebhookRetryPolicy;
  /** Deliveries in a row that end failed before a team endpoint is disabled (default ENDPOINT_FAILURE_LIMIT). */
  endpointFailureLimit?: number;
}

/**
 * Makes one try of a delivery and records it. A try that is not the delivery's next one (a duplicate or a
 * late queue job) changes nothing. 2xx: delivered. 410: stopped, and the URL is stopped for the team (its
 * other pending deliveries too). Anything else (another status, a network error, a timeout): the next
 * try is queued after a jittered backoff, or, after the last allowed try, the delivery is `failed`.
 */
export async function deliverWebhookTry(
  services: Pick<Services, 'db' | 'boss' | 'keys' | 'mailer' | 'config' | 'log'>,
  target: DeliveryTry,
  settings: DeliverySettings,
): Promise<TryOutcome> {
  const { db, boss } = services;
  const { webhookId, attempt } = target;
  const found = await db.query<DeliveryRow>(
    `SELECT d.webhook_id, d.team_id, d.job_id, d.endpoint_id, e.enabled AS endpoint_enabled, d.event_type,
            d.url, d.payload, d.status, d.attempts
       FROM webhook_deliveries d LEFT JOIN webhook_endpoints e ON e.id = d.endpoint_id
      WHERE d.webhook_id = $1`,
    [webhookId],
  );
  const delivery = found.rows[0];
  if (!delivery) return { kind: 'skipped', reason: 'unknown_delivery' };
  if (delivery.status !== 'pending' || delivery.attempts !== attempt - 1) {
    return { kind: 'skipped', reason: 'not_due' };
  }

  // A job's own URL is stopped per team by a 410; a team endpoint by being disabled.
  const stopped =
    delivery.endpoint_id !== null
      ? delivery.endpoint_enabled !== true
      : Boolean(
          (
            await db.query('SELECT 1 FROM webhook_stopped_urls WHERE team_id = $1 AND url = $2', [
              delivery.team_id,
              delivery.url,
            ])
          ).rowCount,
        );
  if (stopped) {
    await db.query(
      `UPDATE webhook_deliveries SET status = 'stopped', next_attempt_at = NULL, updated_at = now()
        WHERE webhook_id = $1 AND status = 'pending'`,
      [webhookId],
    );
    return { kind: 'stopped', status: null };
  }

  const secrets = await webhookSigningSecrets(db, services.keys.encryption, delivery.team_id);
  const body = eventBody(delivery.payload);
  const headers = signedWebhookHeaders(secrets, webhookId, body);
  const sentBody = bodyHead(body);
  // A try that was started and never finished (a crashed worker) is simply made again. The request is
  // logged as sent: its headers carry signatures (HMACs), never the secret itself.
  await db.query(
    `INSERT INTO webhook_attempts (webhook_id, attempt, request_headers, request_body, request_body_truncated, url)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (webhook_id, attempt) DO UPDATE
       SET started_at = now(), finished_at = NULL, duration_ms = NULL, response_status = NULL, error = NULL,
           next_attempt_at = NULL, url = EXCLUDED.url, request_headers = EXCLUDED.request_headers,
           request_body = EXCLUDED.request_body, request_body_truncated = EXCLUDED.request_body_truncated,
           response_headers = NULL, response_body = NULL,
           response_body_truncated = false`,
    [webhookId, attempt, JSON.stringify(headers), sentBody.text, sentBody.truncated, delivery.url],
  );

  const { policy } = settings;
  const started = performance.now();
  let status: number | null = null;
  let error: string | null = null;
  let answer: Awaited<ReturnType<WebhookSender>> | null = null;
  try {
    answer = await settings.send(delivery.url, headers, body, policy.timeoutMs);
    status = answer.status;
  } catch (caught) {
    error = describeSendError(caught, policy.timeoutMs);
  }
  const durationMs = Math.max(0, Math.round(performance.now() - started));

  let outcome: TryOutcome;
  if (status !== null && status >= 200 && status < 300) {
    outcome = { kind: 'delivered', status };
  } else if (status === 410) {
    error = 'receiver answered 410 Gone: no more webhooks are sent to this URL';
    outcome = { kind: 'stopped', status };
  } else {
    if (status !== null) error = `receiver answered HTTP ${status}`;
    outcome =
      attempt >= policy.maxAttempts
        ? { kind: 'failed', status, error }
        : {
            kind: 'retry',
            status,
            error,
            nextAttemptAt: new Date(Date.now() + retryDelayMs(attempt, policy)),
          };
  }
  const newStatus: DeliveryStatus =
    outcome.kind === 'retry' ? 'pending' : outcome.kind === 'delivered' ? 'delivered' : outcome.kind;
  const nextAttemptAt = outcome.kind === 'retry' ? outcome.nextAttemptAt : null;

  let disabledEndpoint: DisabledEndpoint | null = null;
  await transaction(db, async (client) => {
    // Guarded by the state this try started from: if the delivery moved on meanwhile (stopped by another
    // delivery's 410), the try is recorded but schedules nothing.
    const moved = await client.query(
      `UPDATE webhook_deliveries
          SET attempts = $2, status = $3, next_attempt_at = $4, last_status = $5, last_error = $6,
              updated_at = now()
        WHERE webhook_id = $1 AND status = 'pending' AND attempts = $2 - 1`,
      [webhookId, attempt, newStatus, nextAttemptAt, status, error],
    );
    const current = (moved.rowCount ?? 0) > 0;
    await client.query(
      `UPDATE webhook_attempts
          SET finished_at = now(), duration_ms = $3, response_status = $4, error = $5, next_attempt_at = $6,
              response_headers = $7, response_body = $8, response_body_truncated = $9
        WHERE webhook_id = $1 AND attempt = $2`,
      [
        webhookId,
        attempt,
        durationMs,
        status,
        error,
        current ? nextAttemptAt : null,
        answer ? JSON.stringify(loggedResponseHeaders(answer.headers)) : null,
        answer ? bodyHead(answer.body ?? '').text : null,
        answer ? Boolean(answer.bodyTruncated) || bodyHead(answer.body ?? '').truncated : false,
      ],
    );
    if (!current) return;
    if (delivery.endpoint_id !== null) {
      // A team endpoint keeps its own health; a 410 turns the endpoint off rather than stopping the URL.
      if (outcome.kind !== 'retry') {
        disabledEndpoint = await recordEndpointOutcome(
          client,
          delivery.endpoint_id,
          outcome.kind === 'delivered' ? 'delivered' : outcome.kind === 'stopped' ? 'gone' : 'failed',
          settings.endpointFailureLimit ?? ENDPOINT_FAILURE_LIMIT,
        );
      }
    } else if (outcome.kind === 'stopped') {
      await client.query(
        `INSERT INTO webhook_stopped_urls (team_id, url, webhook_id) VALUES ($1, $2, $3)
         ON CONFLICT (team_id, url) DO NOTHING`,
        [delivery.team_id, delivery.url, webhookId],
      );
      await client.query(
        `UPDATE webhook_deliveries SET status = 'stopped', next_attempt_at = NULL, updated_at = now()
          WHERE team_id = $1 AND url = $2 AND status = 'pending'`,
        [delivery.team_id, delivery.url],
      );
    }
    if (outcome.kind === 'retry') await queueTry(boss, client, webhookId, attempt + 1, outcome.nextAttemptAt);
  });
  if (disabledEndpoint) {
    // After the commit: the endpoint is off whether or not the mail goes out, and a mail failure is logged.
    await mailOwnersEndpointDisabled(services, disabledEndpoint).catch((mailError: unknown) =>
      services.log.warn('endpoint-disabled mail not sent', { error: String(mailError) }),
    );
  }
  return outcome;
}

interface DeliveryListRow {
  webhook_id: string;
  job_id: string | null;
  endpoint_id: string | null;
  event_type: DeliveryEventType;
  url: string;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: Date | null;
  created_at: Date;
  updated_at: Date;
  attempt: number | null;
  started_at: Date | null;
  finished_at: Date | null;
  duration_ms: number | null;
  response_status: number | null;
  error: string | null;
  attempt_next_at: Date | null;
  /** Where this try went (null for tries made before migration 030: then the delivery's URL). */
  attempt_url: string | null;
  request_headers: Record<string, string> | null;
  request_body: string | null;
  request_body_truncated: boolean;
  response_headers: Record<string, string> | null;
  response_body: string | null;
  response_body_truncated: boolean;
}

const STOPPED_BEFORE_SENDING =
  'not sent: this URL answered 410 Gone to an earlier webhook, so no more webhooks are sent to it';
const ENDPOINT_OFF_BEFORE_SENDING = 'not sent: the webhook endpoint was disabled';

/** Which deliveries to list: a job's (its own webhook and the team endpoints'), or an endpoint's latest. */
export type DeliveryFilter = { jobId: string } | { endpointId: string; limit: number; viewer: FolderViewer };

/** What a try sent, as the log shows it (null for a try made before the log existed). */
function requestOf(r: DeliveryListRow): WebhookDelivery['request'] {
  if (!r.request_headers) return null;
  return {
    url: r.attempt_url ?? r.url,
    headers: r.request_headers,
    body: r.request_body ?? '',
    body_truncated: r.request_body_truncated,
  };
}

function responseOf(r: DeliveryListRow): WebhookDelivery['response'] {
  if (r.response_status === null || r.response_headers === null) return null;
  return {
    status: r.response_status,
    headers: r.response_headers,
    body: r.response_body ?? '',
    body_truncated: r.response_body_truncated,
  };
}

/**
 * Every try of the deliveries picked by `filter`, newest first, shaped as the contract's WebhookDelivery
 * (one entry per try; the id is `<webhook_id>.<try>`), each with what it sent and got back. Besides the
 * tries made, a delivery whose first try is still queued shows that try as `pending`, and one stopped
 * without sending (its URL answered 410 to another webhook, or its endpoint was disabled) shows a
 * `failed` entry saying so, so a delivery never lists as empty. Only the team's deliveries.
 */
export async function listDeliveryTries(
  db: Queryable,
  teamId: string,
  filter: DeliveryFilter,
): Promise<WebhookDelivery[]> {
  const picked =
    'jobId' in filter
      ? { where: 'team_id = $1 AND job_id = $2', args: [filter.jobId] }
      : {
          // The log shows the job's body: only deliveries about jobs the viewer may see (folder rules).
          where: `team_id = $1 AND endpoint_id = $2 AND (job_id IS NULL OR EXISTS (
                    SELECT 1 FROM jobs j WHERE j.id = job_id AND ${inVisibleFolderSql('j.folder_id', '$4', '$5')}))
                  ORDER BY created_at DESC LIMIT $3`,
          args: [filter.endpointId, filter.limit, filter.viewer.personId, seesEveryFolder(filter.viewer)],
        };
  const { rows } = await db.query<DeliveryListRow>(
    `SELECT d.webhook_id, d.job_id, d.endpoint_id, d.event_type, d.url, d.status, d.attempts,
            d.next_attempt_at, d.created_at, d.updated_at, a.attempt, a.started_at, a.finished_at,
            a.duration_ms, a.response_status, a.error, a.next_attempt_at AS attempt_next_at,
            a.url AS attempt_url,
            a.request_headers, a.request_body, coalesce(a.request_body_truncated, false) AS request_body_truncated,
            a.response_headers, a.response_body,
            coalesce(a.response_body_truncated, false) AS response_body_truncated
       FROM (SELECT * FROM webhook_deliveries WHERE ${picked.where}) d
       LEFT JOIN webhook_attempts a ON a.webhook_id = d.webhook_id`,
    [teamId, ...picked.args],
  );
  const out: WebhookDelivery[] = [];
  const byDelivery = new Map<string, DeliveryListRow[]>();
  for (const row of rows) {
    const list = byDelivery.get(row.webhook_id) ?? [];
    list.push(row);
    byDelivery.set(row.webhook_id, list);
  }
  for (const group of byDelivery.values()) {
    const d = group[0]!;
    const base = {
      webhook_id: d.webhook_id,
      job_id: d.job_id,
      endpoint_id: d.endpoint_id,
      event_type: d.event_type,
      url: d.url,
    };
    const tries = group.filter((r) => r.attempt !== null && r.started_at !== null);
    for (const r of tries) {
      const attempt = r.attempt!;
      const ok = r.response_status !== null && r.response_status >= 200 && r.response_status < 300;
      const latest = attempt === d.attempts && d.status === 'pending';
      out.push({
        ...base,
        url: r.attempt_url ?? d.url,
        id: `${d.webhook_id}.${attempt}`,
        attempt,
        status: r.finished_at === null ? 'pending' : ok ? 'succeeded' : 'failed',
        response_status: r.response_status,
        error: r.error,
        duration_ms: r.duration_ms,
        created_at: r.started_at!.toISOString(),
        next_attempt_at: latest && r.attempt_next_at ? r.attempt_next_at.toISOString() : null,
        request: requestOf(r),
        response: r.finished_at === null ? null : responseOf(r),
      });
    }
    const inFlight = tries.some((r) => r.attempt === d.attempts + 1);
    const last = tries.find((r) => r.attempt === d.attempts);
    // The next try is queued and not started: a first try, or one asked for again (redelivery). A retry
    // after a failed try shows on that try instead (its next_attempt_at).
    const queuedNext =
      d.status === 'pending' &&
      !inFlight &&
      (d.attempts === 0 || (last !== undefined && !last.attempt_next_at));
    const stoppedUnsent = d.status === 'stopped' && last?.response_status !== 410 && !inFlight;
    if (queuedNext || stoppedUnsent) {
      out.push({
        ...base,
        id: `${d.webhook_id}.${d.attempts + 1}`,
        attempt: d.attempts + 1,
        status: queuedNext ? 'pending' : 'failed',
        response_status: null,
        error: queuedNext ? null : d.endpoint_id ? ENDPOINT_OFF_BEFORE_SENDING : STOPPED_BEFORE_SENDING,
        duration_ms: null,
        created_at: (queuedNext && d.attempts === 0 ? d.created_at : d.updated_at).toISOString(),
        next_attempt_at: queuedNext && d.next_attempt_at ? d.next_attempt_at.toISOString() : null,
        request: null,
        response: null,
      });
    }
  }
  return out.sort(
    (a, b) => b.created_at.localeCompare(a.created_at) || b.attempt - a.attempt || b.id.localeCompare(a.id),
  );
}

/** Every try of a job's webhooks (its own `webhook_url` and the team endpoints'), newest first. */
export function listJobDeliveries(db: Queryable, teamId: string, jobId: string): Promise<WebhookDelivery[]> {
  return listDeliveryTries(db, teamId, { jobId });
}
