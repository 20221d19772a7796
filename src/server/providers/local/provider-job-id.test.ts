import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { person } from '../../testing/team-test-support.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';
import { waitForTerminal } from '../../testing/wait-for-terminal.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const LOCAL_RUN_ID = /^local_[0-9a-f]{24}$/;

describe('provider_job_id of local jobs (spec 2.1: a string)', () => {
  it('is the id of the engine run, one per run, on completed and failed jobs alike', async () => {
    const p = await person(t);
    const run = async (prompt: string) =>
      waitForTerminal(p.client, (await p.client.createImage({ body: { model: 'local-sketch', prompt } })).id);
    const first = await run('a quiet bay');
    const second = await run('a busy port');
    expect(first.status).toBe('completed');
    expect(first.provider_job_id).toMatch(LOCAL_RUN_ID);
    expect(second.provider_job_id).toMatch(LOCAL_RUN_ID);
    expect(second.provider_job_id).not.toBe(first.provider_job_id);

    const url = first.output!.outputs[0]!.url!;
    const failed = await waitForTerminal(
      p.client,
      (await p.client.createImage({ body: { model: 'local-edit', files: [{ url }] } })).id,
    );
    expect(failed.status).toBe('failed');
    expect(failed.provider_job_id).toMatch(LOCAL_RUN_ID);
  });

  it('is, for an answer from the result cache, the id of the run that made it', async () => {
    const p = await person(t);
    const body = { model: 'local-sketch', prompt: 'a lighthouse, cached' };
    const made = await waitForTerminal(p.client, (await p.client.createImage({ body })).id);
    const cached = await waitForTerminal(p.client, (await p.client.createImage({ body })).id);
    expect(cached.pricing.cached).toBe(true);
    expect(made.provider_job_id).toMatch(LOCAL_RUN_ID);
    expect(cached.provider_job_id).toBe(made.provider_job_id);
  });
});
