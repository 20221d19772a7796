import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type InstancePresence, startPresence } from '../../db/instance-presence.ts';
import { createTestApp, signUp, type TestApp } from '../../testing/test-app.ts';
import { claimJob } from './job-lease.ts';

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
