import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, type TestApp } from '../../testing/test-app.ts';
import { requeueOrphans } from './job-lease.ts';
import { RUN_JOB_QUEUE } from './queue-names.ts';

// No workers in this process: nothing takes the messages, so the test plays the worker that dies.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({}, { work: false });
});
afterAll(async () => {
  await t?.close();
});

async function messagesOf(jobId: string) {
  const { rows } = await t.db.query<{ state: string }>(
    `SELECT state FROM pgboss.job WHERE name = $1 AND data->>'jobId' = $2 ORDER BY created_on`,
    [RUN_JOB_QUEUE, jobId],
  );
  return rows.map((r) => r.state);
}

describe('a queued job whose message was taken by a process that died before claiming it', () => {
  it('gets a new message from the sweep, once, instead of waiting for the message to expire', async () => {
    const client = t.clientFor((await signUp(t)).api_key);
    const job = await client.createImage({ body: { model: 'local-sketch', prompt: 'stranded' } });
    const taken = await t.services.boss.fetch(RUN_JOB_QUEUE);
    expect(taken.map((m) => (m.data as { jobId: string }).jobId)).toEqual([job.id]);

    // Taken just now: its taker may still be about to claim the job.
    expect(await requeueOrphans(t.services)).not.toContain(job.id);

    await t.db.query(
      `UPDATE pgboss.job SET started_on = now() - interval '1 minute' WHERE name = $1 AND id = $2`,
      [RUN_JOB_QUEUE, taken[0]!.id],
    );
    expect(await requeueOrphans(t.services)).toEqual([job.id]);
    expect(await messagesOf(job.id)).toEqual(['active', 'created']);
    // The new message waits to be taken: a second sweep sends nothing more.
    expect(await requeueOrphans(t.services)).toEqual([]);
    expect((await client.getJob({ params: { id: job.id } })).status).toBe('queued');
  });

  it('gets a new message when its message failed every try before a claim (the database was away)', async () => {
    const client = t.clientFor((await signUp(t)).api_key);
    const job = await client.createImage({
      body: { model: 'local-sketch', prompt: 'failed before its claim' },
    });
    // As pg-boss leaves a message whose handler threw on its last try.
    await t.db.query(`UPDATE pgboss.job SET state = 'failed' WHERE name = $1 AND data->>'jobId' = $2`, [
      RUN_JOB_QUEUE,
      job.id,
    ]);
    expect(await requeueOrphans(t.services)).toEqual([job.id]);
    expect(await messagesOf(job.id)).toEqual(['failed', 'created']);
    expect(await requeueOrphans(t.services)).toEqual([]);
    expect((await client.getJob({ params: { id: job.id } })).status).toBe('queued');
  });
});
