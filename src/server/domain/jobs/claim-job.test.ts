import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type InstancePresence, startPresence } from '../../db/instance-presence.ts';
import { runJobDeps } from '../../run-job-deps.ts';
import type { Services } from '../../services.ts';
import { createTestApp, signUp, type TestApp } from '../../testing/test-app.ts';
import { handBack, RUN_FAILURES_MAX } from './job-lease.ts';
import { cancelActiveJob, claimJob, completeJob, failJob, startRun } from './job-lifecycle.ts';
import { runJob } from './run-job.ts';

// No workers in this process: the test claims the queued jobs itself, as a live instance.
let t: TestApp;
let presence: InstancePresence;
beforeAll(async () => {
  t = await createTestApp({}, { work: false });
  presence = await startPresence(t.db, t.services.log);
});
afterAll(async () => {
  await presence?.stop();
  await t?.close();
});

async function queuedSketch(options: Record<string, unknown> = {}) {
  const client = t.clientFor((await signUp(t)).api_key);
  return client.createImage({ body: { model: 'local-sketch', prompt: 'claim', options } });
}

describe('claiming a queued job', () => {
  it('marks it running in the same statement, once: a second claim finds a live run', async () => {
    const job = await queuedSketch({ cache: false });
    const lease = await claimJob(t.db, job.id, presence.key, 60, { start: true });
    expect(lease?.row).toMatchObject({ status: 'running', provider_status: 'running', progress: 0 });
    expect(lease?.row.started_at).not.toBeNull();
    expect(lease?.row.run_token).toBe(lease?.token);
    expect(await claimJob(t.db, job.id, presence.key, 60, { start: true })).toBeNull();
  });

  it('leaves it submitting when a cached answer waits for it, or the server is stopping', async () => {
    const cachedJob = await queuedSketch();
    const { rows } = await t.db.query<{ cache_key: string }>('SELECT cache_key FROM jobs WHERE id = $1', [
      cachedJob.id,
    ]);
    await t.db.query(`INSERT INTO result_cache (cache_key, output, billed_units) VALUES ($1, '{}', '{}')`, [
      rows[0]!.cache_key,
    ]);
    const cached = await claimJob(t.db, cachedJob.id, presence.key, 60, { start: true });
    expect(cached?.row).toMatchObject({ status: 'submitting', started_at: null });

    const stoppingJob = await queuedSketch({ cache: false });
    const stopping = await claimJob(t.db, stoppingJob.id, presence.key, 60, { start: false });
    expect(stopping?.row).toMatchObject({ status: 'submitting', started_at: null });
  });
});

describe('a finished job', () => {
  it('moves no more: no claim, start, failure or cancel changes it, and it is charged once', async () => {
    const job = await queuedSketch({ cache: false });
    const lease = await claimJob(t.db, job.id, presence.key, 60, { start: false });
    const done = await completeJob(
      t.db,
      job.id,
      {
        output: { version: 'v1', outputs: [] },
        billedUnits: {},
        actualCents: 1,
        cached: false,
        providerStatus: 'succeeded',
      },
      lease!.token,
    );
    expect(done?.status).toBe('completed');
    const ledger = async () =>
      (await t.db.query('SELECT kind FROM credit_ledger WHERE job_id = $1 ORDER BY id', [job.id])).rows;
    const charged = await ledger();
    expect(charged.map((row) => row.kind)).toEqual(['hold', 'release', 'settle']);

    expect(await claimJob(t.db, job.id, presence.key, 60, { start: true })).toBeNull();
    expect(await startRun(t.db, job.id, lease!.token)).toBe(false);
    expect(await failJob(t.db, job.id, { code: 'provider_error', message: 'late' })).toBeNull();
    expect(await cancelActiveJob(t.db, job.id)).toBeNull();
    const { rows } = await t.db.query('SELECT status, actual_cost_cents FROM jobs WHERE id = $1', [job.id]);
    expect(rows[0]).toEqual({ status: 'completed', actual_cost_cents: done!.actual_cost_cents });
    expect(await ledger()).toEqual(charged);
  });
});

describe('a run that died after storing its output', () => {
  it('leaves nothing behind: the next run discards that file and the job ends with its own one', async () => {
    const job = await queuedSketch({ cache: false });
    const deps = runJobDeps(t.services);
    // The first run stores an output, then its process dies before it completes the job.
    const first = await claimJob(t.db, job.id, presence.key, 60, { start: true });
    const orphan = await deps.storeOutput(first!.row, {
      kind: 'file',
      name: 'sketch.png',
      mediaType: 'image/png',
      data: Buffer.from('not really a picture'),
    } as never);
    await handBack(t.services, [{ jobId: job.id, token: first!.token }]);

    const second = await claimJob(t.db, job.id, presence.key, 60, { start: true });
    expect(second?.leftoverFiles).toEqual([orphan.file_id]);
    await handBack(t.services, [{ jobId: job.id, token: second!.token }]);

    await runJob(t.services, deps, job.id);
    const { rows } = await t.db.query<{ id: string }>('SELECT id FROM files WHERE job_id = $1', [job.id]);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.id).not.toBe(orphan.file_id);
    const done = await t.db.query<{ status: string }>('SELECT status FROM jobs WHERE id = $1', [job.id]);
    expect(done.rows[0]!.status).toBe('completed');
  });
});

/**
 * The services with a database whose next `count` connections fail: each transaction opens one (the run
 * completing its job, then failing it), while single statements take the pool's own way.
 */
function losingConnections(count: number): Services {
  let left = count;
  const db = new Proxy(t.db, {
    get(target, property) {
      if (property === 'connect' && left > 0) {
        left--;
        return () => Promise.reject(new Error('connection lost'));
      }
      const value = Reflect.get(target, property);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { ...t.services, db };
}

describe('a run that throws instead of ending its job', () => {
  // Runs as this live instance, so only the lease decides whether another run may take the job.
  beforeAll(() => {
    t.services.jobRuns.presence = presence;
  });
  afterAll(() => {
    t.services.jobRuns.presence = null;
  });

  const jobRow = async (id: string) =>
    (
      await t.db.query<{
        status: string;
        run_failures: number;
        error: { code: string } | null;
        held_cents: number;
      }>('SELECT status, run_failures, error, held_cents FROM jobs WHERE id = $1', [id])
    ).rows[0]!;

  it('lets go of the job at once, so the next try need not wait out the lease', async () => {
    const job = await queuedSketch({ cache: false });
    const deps = runJobDeps(t.services);
    // Completing the job fails, and so does failing it: the run throws.
    await expect(runJob(losingConnections(2), deps, job.id)).rejects.toThrow('connection lost');
    expect(await jobRow(job.id)).toMatchObject({ status: 'running', run_failures: 1 });
    // Before, the lease (JOB_LEASE_SECONDS, 15 minutes) held the job for the run that was gone.
    const next = await claimJob(t.db, job.id, presence.key, 60, { start: true });
    expect(next).not.toBeNull();
    await handBack(t.services, [{ jobId: job.id, token: next!.token }]);
    await runJob(t.services, deps, job.id);
    expect((await jobRow(job.id)).status).toBe('completed');
    // The output of the run that threw was discarded: one file, the last run's.
    const { rows } = await t.db.query('SELECT id FROM files WHERE job_id = $1', [job.id]);
    expect(rows).toHaveLength(1);
  });

  it(`fails the job after ${RUN_FAILURES_MAX} such runs and gives its credits back`, async () => {
    const owner = await signUp(t);
    const client = t.clientFor(owner.api_key);
    const before = await client.getBalanceV1();
    const job = await client.createImage({
      body: { model: 'local-sketch', prompt: 'claim', options: { cache: false } },
    });
    const deps = runJobDeps(t.services);
    for (let run = 1; run < RUN_FAILURES_MAX; run++) {
      await expect(runJob(losingConnections(2), deps, job.id)).rejects.toThrow('connection lost');
      expect(await jobRow(job.id)).toMatchObject({ status: 'running', run_failures: run });
    }
    // The last run: completing and failing it as a provider error fail, then the job fails as ours.
    await runJob(losingConnections(2), deps, job.id);
    expect(await jobRow(job.id)).toMatchObject({
      status: 'failed',
      run_failures: RUN_FAILURES_MAX,
      error: { code: 'internal_error' },
      held_cents: 0,
    });
    expect((await client.getBalanceV1()).balance_cents).toBe(before.balance_cents);
  });
});
