import {
  cancelJob,
  getJob,
  getJobPrice,
  getJobStatus,
  type JobListQuery,
  listJobs,
  listJobWebhookDeliveries,
  refreshJob,
  retryJob,
} from '../../../contract/jobs.ts';
import type { Queryable } from '../../db/pool.ts';
import { createJob } from '../../domain/jobs/create-job.ts';
import { cancelActiveJob } from '../../domain/jobs/finish-job.ts';
import { type JobRow, toJob, toStatusView } from '../../domain/jobs/job-row.ts';
import { refreshFromProvider } from '../../domain/jobs/refresh-job.ts';
import { TtlCache } from '../../domain/ttl-cache.ts';
import { listJobDeliveries } from '../../domain/webhooks/deliveries.ts';
import { AppError } from '../../errors.ts';
import type { Services } from '../../services.ts';
import type { AuthContext } from '../auth.ts';
import { defineRoute, reply } from '../define-route.ts';
import { respond } from '../respond.ts';

/** A job of the caller's team, or 404 (another team's job is answered like a missing one). */
export async function findJob(db: Queryable, auth: AuthContext, id: string): Promise<JobRow> {
  const { rows } = await db.query<JobRow>('SELECT * FROM jobs WHERE id = $1 AND team_id = $2', [
    id,
    auth.teamId,
  ]);
  if (!rows[0]) throw new AppError('not_found', `No job ${id}.`);
  return rows[0];
}

/**
 * Cursor: the last row's (created_at, id), opaque to clients. The instant keeps PostgreSQL's
 * microseconds (a JS Date keeps milliseconds), so jobs made within one millisecond are never skipped.
 */
function encodeCursor(row: JobRow & { cursor_at: string }): string {
  return Buffer.from(`${row.cursor_at}|${row.id}`).toString('base64url');
}

function decodeCursor(cursor: string): { createdAt: string; id: string } {
  const [createdAt, id] = Buffer.from(cursor, 'base64url').toString().split('|');
  if (!createdAt || !id || Number.isNaN(Date.parse(createdAt))) {
    throw new AppError(
      'invalid_request',
      'The cursor is not valid: pass next_cursor from the previous page.',
      {
        status: 422,
        details: { fields: [{ field: 'query.cursor', message: 'invalid cursor', code: 'custom' }] },
      },
    );
  }
  return { createdAt, id };
}

/** Builds the WHERE clause of a job listing from its filters. */
function listFilter(teamId: string, q: JobListQuery) {
  const where = ['team_id = $1'];
  const values: unknown[] = [teamId];
  const add = (sql: (p: string) => string, value: unknown) => {
    values.push(value);
    where.push(sql(`$${values.length}`));
  };
  if (q.status?.length) add((p) => `status = ANY(${p})`, q.status);
  if (q.tool?.length) add((p) => `tool = ANY(${p})`, q.tool);
  if (q.model?.length) add((p) => `model = ANY(${p})`, q.model);
  if (q.folder === 'none') where.push('folder_id IS NULL');
  else if (q.folder?.length) add((p) => `folder_id = ANY(${p}::uuid[])`, q.folder);
  if (q.key === 'none') where.push('api_key_id IS NULL');
  else if (q.key?.length) add((p) => `api_key_id = ANY(${p})`, q.key);
  if (q.created_from) add((p) => `created_at >= ${p}`, q.created_from);
  if (q.created_to) add((p) => `created_at < ${p}`, q.created_to);
  if (q.updated_since) add((p) => `updated_at >= ${p}`, q.updated_since);
  if (q.cursor) {
    const { createdAt, id } = decodeCursor(q.cursor);
    values.push(createdAt, id);
    where.push(`(created_at, id) < ($${values.length - 1}::timestamptz, $${values.length})`);
  }
  return { where: where.join(' AND '), values };
}

const isTerminal = (status: JobRow['status']) =>
  status === 'completed' || status === 'failed' || status === 'cancelled';

export function jobRoutes(s: Services, checkUrls: (urls: string[]) => Promise<void>) {
  const baseUrl = `${s.config.PUBLIC_URL}/v2`;
  const finishedJobs = new TtlCache<string>(60_000, 10_000);
  return [
    defineRoute(listJobs, async ({ auth, query }) => {
      const { where, values } = listFilter(auth.teamId, query);
      // Read before the page, on the database's clock (the one updated_at is written with): every change
      // committed by then is in the page or was before it.
      const clock = await s.db.query<{ now: Date }>('SELECT statement_timestamp() AS now');
      const { rows } = await s.db.query<JobRow & { cursor_at: string }>(
        `SELECT *, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS cursor_at
           FROM jobs WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT ${query.limit + 1}`,
        values,
      );
      const page = rows.slice(0, query.limit);
      return {
        data: page.map((r) => toJob(r, baseUrl)),
        next_cursor: rows.length > query.limit ? encodeCursor(page[page.length - 1]!) : null,
        server_time: clock.rows[0]!.now.toISOString(),
      };
    }),

    defineRoute(getJob, async ({ auth, params, c }) => {
      // A finished job never changes: its answer is kept, serialised, for the pollers still asking.
      const cacheKey = `${auth.teamId}/${params.id}`;
      let body = finishedJobs.get(cacheKey);
      if (!body) {
        const row = await findJob(s.db, auth, params.id);
        if (!isTerminal(row.status)) return toJob(row, baseUrl);
        body = JSON.stringify(toJob(row, baseUrl));
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
