import {
  cancelJob,
  getJob,
  getJobPrice,
  getJobStatus,
  listJobs,
  listJobWebhookDeliveries,
  redeliverJobWebhook,
  refreshJob,
  retryJob,
} from '../../../contract/jobs.ts';
import type { Queryable } from '../../db/pool.ts';
import { inVisibleFolderSql, viewerParams } from '../../domain/folders/folder-visibility.ts';
import type { AuthContext } from '../../domain/identity/auth-context.ts';
import { createJob } from '../../domain/jobs/create-job.ts';
import { cancelActiveJob } from '../../domain/jobs/job-lifecycle.ts';
import { type JobRow, toJob, toStatusView } from '../../domain/jobs/job-row.ts';
import { refreshFromProvider } from '../../domain/jobs/refresh-job.ts';
import { encodeCursor, splitPage } from '../../domain/page-cursor.ts';
import { TtlCache } from '../../domain/ttl-cache.ts';
import { listJobDeliveries } from '../../domain/webhooks/deliveries.ts';
import { redeliverJobWebhook as redeliverWebhook } from '../../domain/webhooks/redeliver.ts';
import { AppError } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { bearerToken } from '../auth.ts';
import { defineRoute, reply } from '../define-route.ts';
import type { FastPath } from '../fast-path.ts';
import { nodeHeader } from '../request-header.ts';
import { respond } from '../respond.ts';
import { jobPageQuery } from './jobs-list-query.ts';

/**
 * A job of the caller's team that the caller may see, or 404: another team's job, and one filed in a
 * private folder hidden from the caller, are answered like a missing one.
 */
export async function findJob(db: Queryable, auth: AuthContext, id: string): Promise<JobRow> {
  const { rows } = await db.query<JobRow>(
    `SELECT * FROM jobs WHERE team_id = $1 AND ${inVisibleFolderSql('folder_id', '$2', '$3')} AND id = $4`,
    [...viewerParams(auth), id],
  );
  if (!rows[0]) throw new AppError('not_found', `No job ${id}.`);
  return rows[0];
}

const JSON_HEADERS = Object.freeze({ 'content-type': 'application/json' });

const isTerminal = (status: JobRow['status']) =>
  status === 'completed' || status === 'failed' || status === 'cancelled';

export function jobRoutes(s: Services, checkUrls: (urls: string[]) => Promise<void>, fastPath: FastPath) {
  const baseUrl = `${s.config.PUBLIC_URL}/v2`;
  // As the bytes sent: a finished job never changes, so encoding its text again for every poll is waste.
  const finishedJobs = new TtlCache<Buffer<ArrayBuffer>>(60_000, 10_000);
  // A finished job kept below, read with an API key whose lookup is cached and current: what the route
  // answers, without the framework. A session, a cold key or job, or a key check due takes the route.
  // Only jobs outside any folder are kept: who may see a filed job depends on the folder (and on who
  // asks, and the folder may turn private), so such a job is read through findJob every time.
  fastPath.add(getJob, (req, id) => {
    const token = bearerToken(nodeHeader(req, 'authorization'));
    const principal = token && s.apiKeys.resolveCached(token);
    const body = principal && finishedJobs.get(`${principal.teamId}/${id}`);
    return body ? { status: 200, headers: JSON_HEADERS, body } : undefined;
  });
  return [
    defineRoute(listJobs, async ({ auth, query }) => {
      const page = jobPageQuery(auth, query, query.limit + 1);
      // Read before the page, on the database's clock (the one updated_at is written with): every change
      // committed by then is in the page or was before it.
      const clock = await s.db.query<{ now: Date }>('SELECT statement_timestamp() AS now');
      const { rows } = await s.db.query<JobRow & { cursor_at: string }>(page.text, page.values);
      const { page: shown, nextCursor } = splitPage(rows, query.limit, (last) =>
        encodeCursor(last.cursor_at, last.id),
      );
      return {
        data: shown.map((r) => toJob(r, baseUrl)),
        next_cursor: nextCursor,
        server_time: clock.rows[0]!.now.toISOString(),
      };
    }),

    defineRoute(getJob, async ({ auth, params, c }) => {
      // A finished job never changes: its answer is kept, serialised, for the pollers still asking. A
      // pipeline is the exception: once cancelled, its steps' states and its cost are still written as
      // the running steps stop, so it is read afresh every time.
      const cacheKey = `${auth.teamId}/${params.id}`;
      let body = finishedJobs.get(cacheKey);
      if (!body) {
        const row = await findJob(s.db, auth, params.id);
        if (!isTerminal(row.status) || row.tool === 'pipeline' || row.folder_id !== null) {
          return toJob(row, baseUrl);
        }
        body = Buffer.from(JSON.stringify(toJob(row, baseUrl))) as Buffer<ArrayBuffer>;
        finishedJobs.set(cacheKey, body);
      }
      return respond(c, 200, body, { 'content-type': 'application/json' });
    }),

    defineRoute(getJobStatus, async ({ auth, params }) => toStatusView(await findJob(s.db, auth, params.id))),

    defineRoute(refreshJob, async ({ auth, params }) =>
      toJob(await refreshFromProvider(s, await findJob(s.db, auth, params.id)), baseUrl),
    ),

    defineRoute(cancelJob, async ({ auth, params }) => {
      const row = await findJob(s.db, auth, params.id);
      if (row.status === 'cancelled') return toJob(row, baseUrl);
      const cancelled = await cancelActiveJob(s.db, row.id);
      if (!cancelled) {
        const current = await findJob(s.db, auth, params.id);
        if (current.status === 'cancelled') return toJob(current, baseUrl);
        throw new AppError(
          'conflict',
          `Job ${row.id} is already ${current.status} and cannot be cancelled.`,
          {
            details: { status: current.status },
          },
        );
      }
      await s.onJobTerminal(cancelled);
      return toJob(cancelled, baseUrl);
    }),

    defineRoute(retryJob, async ({ auth, params, headers }) => {
      const row = await findJob(s.db, auth, params.id);
      if (row.status !== 'failed' && row.status !== 'cancelled') {
        throw new AppError(
          'conflict',
          `Only failed or cancelled jobs can be retried; ${row.id} is ${row.status}.`,
        );
      }
      const { job, replay } = await createJob(
        s,
        auth,
        {
          tool: row.tool,
          body: row.input,
          retryOf: row.id,
          idempotencyKey: headers?.['idempotency-key'],
          workspace: row.folder_id ?? undefined,
        },
        checkUrls,
      );
      return reply(replay ? 200 : 202, job);
    }),

    defineRoute(listJobWebhookDeliveries, async ({ auth, params }) => {
      const row = await findJob(s.db, auth, params.id);
      return { data: await listJobDeliveries(s.db, auth.teamId, row.id) };
    }),

    defineRoute(redeliverJobWebhook, async ({ auth, params }) => {
      const row = await findJob(s.db, auth, params.id);
      const queued = await redeliverWebhook(s, auth.teamId, row.id);
      return reply(202, { webhook_id: queued.webhookId, attempt: queued.attempt });
    }),

    defineRoute(getJobPrice, async ({ auth, params }) => {
      const row = await findJob(s.db, auth, params.id);
      return {
        job_id: row.id,
        status: row.status,
        model: row.model,
        tool: row.tool,
        pricing_id: row.pricing_id,
        estimated_cost_cents: row.estimated_cost_cents,
        actual_cost_cents: row.actual_cost_cents,
        billed_units: row.billed_units ?? {},
        billing: row.billing,
        cached: row.cached,
      };
    }),
  ];
}
