import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type InstancePresence, startPresence } from '../../db/instance-presence.ts';
import { createTestApp, signUp, type TestApp } from '../../testing/test-app.ts';
import { claimJob, handBack } from './job-lease.ts';
import { runJob } from './run-job.ts';
import { runJobDeps } from './run-job-deps.ts';

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
