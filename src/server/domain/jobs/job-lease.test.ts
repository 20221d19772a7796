import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPresence } from '../../db/instance-presence.ts';
import { runJobDeps } from '../../run-job-deps.ts';
import { makeBigPicture, startSlowJob, waitForJob } from '../../testing/server-journeys.ts';
import { createTestApp, signUp, type TestApp } from '../../testing/test-app.ts';
import { RESUMED_PRIORITY, requeueOrphans, WAITING_TO_RESUME } from './job-lease.ts';
import { claimJob } from './job-lifecycle.ts';
import { RUN_JOB_QUEUE } from './queue-names.ts';
import { runJob } from './run-job.ts';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ JOB_LEASE_SECONDS: '600' });
});

afterAll(async () => {
  await t?.close();
});

describe('a run that outlives its lease', () => {
  it('is taken over by the next run without running twice at once: one set of outputs, one charge', async () => {
    const client = t.clientFor((await signUp(t)).api_key);
    const slow = await startSlowJob(client);
    expect((await client.getJobStatus({ params: { id: slow.id } })).status).toBe('running');

    // The run stalls past its lease (a paused process, say), and the queue hands the job out again.
    await t.db.query(`UPDATE jobs SET lease_expires_at = now() - interval '1 second' WHERE id = $1`, [
      slow.id,
    ]);
    await runJob(t.services, runJobDeps(t.services), slow.id);

    const finished = await waitForJob(client, slow.id);
    expect(finished.status).toBe('completed');
    // The run that lost the job ends without writing: no second file, no second terminal move.
    for (let i = 0; i < 600 && t.services.jobRuns.runsOf(slow.id) > 0; i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(t.services.jobRuns.runsOf(slow.id)).toBe(0);
    const files = await client.listFiles({ query: { job: slow.id } });
    expect(files.data.map((f) => f.id)).toEqual([finished.output!.outputs[0]!.file_id]);
    const stored = await t.db.query('SELECT id FROM files WHERE job_id = $1', [slow.id]);
    expect(stored.rows).toEqual([{ id: finished.output!.outputs[0]!.file_id }]);
    expect(await client.getJob({ params: { id: slow.id } })).toEqual(finished);
    expect((await client.getMe()).balance_cents).toBe(1000 - 1 - 2 - 2);
  }, 120_000);

  it('whose server instance is gone is requeued within seconds, long before its lease ends', async () => {
    const client = t.clientFor((await signUp(t)).api_key);
    const slow = await startSlowJob(client);
    // The run now belongs to an instance whose presence lock nobody holds: a process that died.
    const dead = t.services.jobRuns.instance()! + 1;
    await t.db.query('UPDATE jobs SET run_instance = $2 WHERE id = $1', [slow.id, dead]);
    // The sweep every worker runs every few seconds, run now: waiting for the timer raced the slow job,
    // which could finish first under the dead instance's name. (The timer itself is covered by the
    // process tests in crash-recovery.test.ts.) The background sweep may get there first: either way
    // the job is requeued once.
    const resumed = await requeueOrphans(t.services);
    const requeued = await t.db.query('SELECT run_instance FROM jobs WHERE id = $1', [slow.id]);
    expect(resumed.includes(slow.id) || requeued.rows[0].run_instance !== dead).toBe(true);

    const finished = await waitForJob(client, slow.id, 60_000);
    expect(finished.status).toBe('completed');
    const files = await client.listFiles({ query: { job: slow.id } });
    expect(files.data.map((f) => f.id)).toEqual([finished.output!.outputs[0]!.file_id]);
    const row = await t.db.query('SELECT run_instance, lease_expires_at FROM jobs WHERE id = $1', [slow.id]);
    // Finished by a new run of this (live) instance, under the lease of the running configuration.
    expect(row.rows[0].run_instance).toBe(t.services.jobRuns.instance());
  }, 120_000);

  it('is not run again while its lease is live: a repeated queue message changes nothing', async () => {
    const client = t.clientFor((await signUp(t)).api_key);
    const slow = await startSlowJob(client);
    const before = await t.db.query('SELECT run_token FROM jobs WHERE id = $1', [slow.id]);
    await runJob(t.services, runJobDeps(t.services), slow.id);
    const after = await t.db.query('SELECT run_token, status FROM jobs WHERE id = $1', [slow.id]);
    expect(after.rows[0].run_token).toBe(before.rows[0].run_token);
    const finished = await waitForJob(client, slow.id);
    expect(finished.status).toBe('completed');
    const files = await client.listFiles({ query: { job: slow.id } });
    expect(files.data).toHaveLength(1);
  }, 120_000);

  it('of a pipeline leaves its running step alone: the run that takes over follows the same step', async () => {
    const client = t.clientFor((await signUp(t)).api_key);
    const bigUrl = await makeBigPicture(client, 'a pipeline of its own');
    const pipeline = await client.runPipeline({
      body: {
        steps: [
          {
            id: 'bigger',
            tool: 'image',
            input: {
              model: 'local-upscale',
              files: [{ url: bigUrl }],
              provider_options: { local: { factor: 2 } },
            },
          },
        ],
      } as never,
    });
    const stepOf = async () => {
      const job = await client.getJob({ params: { id: pipeline.id } });
      return (job.progress_metadata as { steps?: Array<{ job_id: string | null; status: string }> })
        .steps?.[0];
    };
    for (let i = 0; i < 400 && (await stepOf())?.status !== 'running'; i++) {
      await new Promise((r) => setTimeout(r, 25));
    }
    const step = await stepOf();
    expect(step?.status).toBe('running');

    await t.db.query(`UPDATE jobs SET lease_expires_at = now() - interval '1 second' WHERE id = $1`, [
      pipeline.id,
    ]);
    await runJob(t.services, runJobDeps(t.services), pipeline.id);

    const finished = await waitForJob(client, pipeline.id);
    expect(finished.status).toBe('completed');
    expect((await client.getJob({ params: { id: step!.job_id! } })).status).toBe('completed');
    expect(finished.output!.outputs[0]!.file_id).toBe(
      (await client.getJob({ params: { id: step!.job_id! } })).output!.outputs[0]!.file_id,
    );
  }, 120_000);
});

describe('a job this process claimed and no longer runs', () => {
  it('(its run lost the database before it could let go) goes back to the queue ahead of new work, saying it waits', async () => {
    // No workers: nothing but this test takes the jobs. The process holds its presence as a worker does.
    const w = await createTestApp({ JOB_LEASE_SECONDS: '600' }, { work: false });
    const presence = await startPresence(w.db, w.services.log);
    try {
      const instance = presence.key;
      w.services.jobRuns.presence = presence;
      const client = w.clientFor((await signUp(w)).api_key);
      const abandoned = await client.createImage({ body: { model: 'local-sketch', prompt: 'abandoned' } });
      const later = await client.createImage({ body: { model: 'local-sketch', prompt: 'later' } });
      // The new jobs' own messages are taken first: what is left is what the sweep sends.
      const taken = await w.services.boss.fetch(RUN_JOB_QUEUE, { batchSize: 10 });
      expect(taken.map((m) => (m.data as { jobId: string }).jobId).sort()).toEqual(
        [abandoned.id, later.id].sort(),
      );
      expect(await claimJob(w.db, abandoned.id, instance, 600, { start: true })).not.toBeNull();
      // Just claimed: a run between its claim and its start is left alone.
      expect(await requeueOrphans(w.services)).toEqual([]);

      await w.db.query(`UPDATE jobs SET updated_at = now() - interval '1 minute' WHERE id = $1`, [
        abandoned.id,
      ]);
      await w.services.boss.send(RUN_JOB_QUEUE, { jobId: later.id });
      expect(await requeueOrphans(w.services)).toEqual([abandoned.id]);
      expect(await client.getJob({ params: { id: abandoned.id } })).toMatchObject({
        status: 'running',
        progress_message: WAITING_TO_RESUME,
      });
      // Ahead of the work sent before it.
      const [next] = await w.services.boss.fetch(RUN_JOB_QUEUE);
      expect(next).toMatchObject({ data: { jobId: abandoned.id } });
      const { rows } = await w.db.query('SELECT priority FROM pgboss.job WHERE id = $1', [next!.id]);
      expect(rows).toEqual([{ priority: RESUMED_PRIORITY }]);
    } finally {
      await presence.stop();
      await w.close();
    }
  }, 60_000);
});
