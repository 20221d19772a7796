import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Job } from '../../../contract/jobs.ts';
import { freshJob } from '../../../contract/test-fixtures.ts';
import type { Queryable } from '../../db/pool.ts';
import { DEFAULT_WEBHOOK_RETRY_POLICY } from './retry-policy.ts';

/** Test support (imported by tests only): a terminal job row to hang deliveries on, and a local receiver. */

/** Retries one second apart (jitter pinned to the top), so a test sees them within a few polls. */
export const FAST_RETRY_POLICY = {
  ...DEFAULT_WEBHOOK_RETRY_POLICY,
  baseDelayMs: 1_000,
  factor: 1,
  maxDelayMs: 1_000,
  timeoutMs: 2_000,
  random: () => 1,
};

/** Inserts a minimal terminal job for the team and answers it as the API would show it. */
export async function insertTestJob(db: Queryable, teamId: string, status: Job['status'] = 'completed') {
  const id = `job_${randomBytes(8).toString('hex')}`;
  const { rows } = await db.query<{ created_at: Date }>(
    `INSERT INTO jobs (id, team_id, source, tool, model, status, input, estimated_duration_ms,
                       estimated_cost_cents, pricing_id, billing, provider, provider_model, completed_at)
     VALUES ($1, $2, 'api', 'image', 'flux-schnell', $3, '{"prompt":"a red fox"}', 4000, 3, 'p_1',
             'per_image', 'local', 'local:flux-schnell', now())
     RETURNING created_at`,
    [id, teamId, status],
  );
  const at = rows[0]!.created_at.toISOString();
  // The contract's sample job, made to match this row.
  const { urls: _urls, ...job }: Job = freshJob({
    id,
    status,
    input: { prompt: 'a red fox' },
    error: status === 'failed' ? { code: 'provider_error', message: 'The provider failed.' } : null,
    created_at: at,
    started_at: at,
    completed_at: at,
    updated_at: at,
    api_key_id: null,
  });
  return job;
}

export interface ReceivedWebhook {
  headers: Record<string, string>;
  body: string;
}

/**
 * An HTTP receiver on 127.0.0.1 (port chosen by the system). `answer(n)` gives the status of the n-th
 * request (1-based), or `'hang'` to never answer.
 */
export async function startReceiver(answer: (n: number) => number | 'hang' = () => 200) {
  const received: ReceivedWebhook[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) {
        if (typeof value === 'string') headers[name] = value;
      }
      received.push({ headers, body: Buffer.concat(chunks).toString('utf8') });
      const status = answer(received.length);
      if (status === 'hang') return;
      res.writeHead(status, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/${randomBytes(4).toString('hex')}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Polls `check` until it answers a value (not undefined), or fails after `timeoutMs`. */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
