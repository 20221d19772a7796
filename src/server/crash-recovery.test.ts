import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Client } from '../client/create-client.ts';
import type { WebhookDelivery } from '../contract/jobs.ts';
import { freePort } from './db/embedded.ts';
import { signInOn, startHookReceiver, startSlowJob, waitForJob } from './testing/server-journeys.ts';
import { startServerProcess } from './testing/server-process.ts';
import { until } from './testing/until.ts';

const dirs: string[] = [];

afterAll(async () => {
  for (const dir of dirs) await fs.rm(dir, { recursive: true, force: true });
});

async function serverEnv(extra: Record<string, string>) {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mc-crash-job-'));
  dirs.push(dataDir);
  const port = await freePort();
  return {
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    ALLOW_PRIVATE_NETWORK: 'true',
    // Far longer than the test: a job resumed before it was resumed because its server is known gone.
    JOB_LEASE_SECONDS: '600',
    QUEUE_MAINTENANCE_SECONDS: '1',
    ...extra,
  };
}

/** One terminal state, one charge, one webhook, one set of outputs. */
async function expectFinishedOnce(client: Client, jobId: string, hooks: string[]) {
  const finished = await waitForJob(client, jobId, 60_000);
  expect(finished.status).toBe('completed');
  expect(finished.output?.outputs).toHaveLength(1);
  const files = await client.listFiles({ query: { job: jobId } });
  expect(files.data.map((f) => f.id)).toEqual([finished.output!.outputs[0]!.file_id]);
  // Sign-up 1000; the sketch costs 1, each upscale 2: the interrupted run was charged once, its hold not lost.
  expect((await client.getMe()).balance_cents).toBe(1000 - 1 - 2 - 2);
  await until(() => hooks.length > 0, 5_000);
  // Every try of a webhook is recorded, and its event is enqueued once per job and type: one try that
  // succeeded with none scheduled is the only delivery there will be (no waiting for a second one).
  let deliveries: WebhookDelivery[] = [];
  await until(async () => {
    deliveries = (await client.listJobWebhookDeliveries({ params: { id: jobId } })).data;
    return deliveries.length > 0 && deliveries.every((d) => d.status !== 'pending');
  }, 10_000);
  expect(deliveries).toEqual([
    expect.objectContaining({ attempt: 1, status: 'succeeded', next_attempt_at: null }),
  ]);
  expect(hooks.map((h) => JSON.parse(h))).toEqual([
    expect.objectContaining({ type: 'job.completed', data: expect.objectContaining({ id: jobId }) }),
  ]);
}

describe('a server stopped in the middle of a job', () => {
  it('killed (SIGKILL): the next start resumes the job at once, not after its lease, and it ends once', async () => {
    const hooks = await startHookReceiver();
    const env = await serverEnv({});
    const first = startServerProcess(env);
    const firstPid = await first.ready;
    const client = await signInOn(env.PUBLIC_URL, 'crash@example.com');
    const slow = await startSlowJob(client, hooks.url);
    expect((await client.getJobStatus({ params: { id: slow.id } })).status).toBe('running');
    process.kill(firstPid, 'SIGKILL');
    await first.exited;

    const second = startServerProcess(env);
    await second.ready;
    await expectFinishedOnce(client, slow.id, hooks.bodies);
    expect(second.output()).toContain('resuming jobs whose run is gone');

    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
    await hooks.close();
  }, 120_000);

  it('stopped (SIGTERM) with no drain time: hands the job back at once, stops cleanly, the next start finishes it once', async () => {
    const hooks = await startHookReceiver();
    const env = await serverEnv({ JOB_DRAIN_SECONDS: '0' });
    const first = startServerProcess(env);
    await first.ready;
    const client = await signInOn(env.PUBLIC_URL, 'term@example.com');
    const slow = await startSlowJob(client, hooks.url);
    expect((await client.getJobStatus({ params: { id: slow.id } })).status).toBe('running');
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(first.output()).toMatch(new RegExp(`"msg":"handed back unfinished jobs".*"${slow.id}"`));
    // The queue and workers stop before the database: nothing queries a database on its way down.
    expect(first.output()).not.toContain('the database system is shutting down');
    expect(first.output()).not.toContain('shutdown step failed');

    const second = startServerProcess(env);
    await second.ready;
    await expectFinishedOnce(client, slow.id, hooks.bodies);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
    await hooks.close();
  }, 120_000);

  it('stopped (SIGTERM) with drain time: lets the running job finish before it stops', async () => {
    const hooks = await startHookReceiver();
    const env = await serverEnv({ JOB_DRAIN_SECONDS: '60' });
    const first = startServerProcess(env);
    await first.ready;
    const client = await signInOn(env.PUBLIC_URL, 'drain@example.com');
    const slow = await startSlowJob(client, hooks.url);
    expect((await client.getJobStatus({ params: { id: slow.id } })).status).toBe('running');
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(first.output()).not.toContain('handed back unfinished jobs');
    expect(first.output()).not.toContain('the database system is shutting down');

    const second = startServerProcess(env);
    await second.ready;
    expect(second.output()).not.toContain('resuming jobs whose run is gone');
    await expectFinishedOnce(client, slow.id, hooks.bodies);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
    await hooks.close();
  }, 120_000);
});
