import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './db/embedded.ts';
import {
  type FalProtocolServer,
  startFalProtocolServer,
} from './providers/remote/testing/fal-protocol-server.ts';
import { PNG } from './providers/remote/testing/fal-replicate-test-media.ts';
import { signInOn, waitForJob } from './testing/server-journeys.ts';
import { startServerProcess } from './testing/server-process.ts';
import { until } from './testing/until.ts';

const FAL_KEY = 'fal-crash-key';
const JOBS = 50;
let fal: FalProtocolServer;
let dataDir: string;

beforeAll(async () => {
  fal = await startFalProtocolServer(FAL_KEY);
  fal.files.set('out.png', { body: PNG, contentType: 'image/png' });
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mc-remote-crash-'));
});
afterAll(async () => {
  await fal.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

describe('a worker killed while it follows jobs at a provider', () => {
  it(`SIGKILL with ${JOBS} jobs in flight: the next start follows each on, none is submitted twice, each ends and is charged once`, async () => {
    const port = await freePort();
    const env = {
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      ALLOW_PRIVATE_NETWORK: 'true',
      FAL_KEY,
      FAL_QUEUE_URL: fal.url,
      FAL_STORAGE_URL: fal.url,
      FAL_JWKS_URL: fal.jwksUrl,
      // Not reachable from fal's side: the jobs are polled, quickly for the test.
      PROVIDERS_REACH_PUBLIC_URL: 'false',
      PROVIDER_POLL_SECONDS: '0.2',
      // Far longer than the test: the jobs are resumed because their server is known gone.
      JOB_LEASE_SECONDS: '600',
      QUEUE_MAINTENANCE_SECONDS: '1',
    };
    fal.behaviour.neverFinish = true;
    const first = startServerProcess(env);
    const firstPid = await first.ready;
    const client = await signInOn(env.PUBLIC_URL, 'remote-crash@example.com');
    const before = (await client.getMe()).balance_cents;
    const ids: string[] = [];
    for (let i = 0; i < JOBS; i++) {
      const created = await client.createImage({ body: { model: 'fal:flux-schnell', prompt: `crash ${i}` } });
      ids.push(created.id);
    }
    await until(async () => {
      const jobs = await Promise.all(ids.map((id) => client.getJob({ params: { id } })));
      return jobs.every((job) => job.provider_job_id !== null);
    }, 60_000);
    process.kill(firstPid, 'SIGKILL');
    await first.exited;

    fal.behaviour.neverFinish = false;
    const second = startServerProcess(env);
    await second.ready;
    const done = await Promise.all(ids.map((id) => waitForJob(client, id, 90_000)));
    expect(done.map((job) => job.status)).toEqual(ids.map(() => 'completed'));
    // One request at fal per job: the resumed runs followed them by their ids, none was sent again.
    for (let i = 0; i < JOBS; i++) {
      const sent = [...fal.requests.values()].filter(
        (r) => (r.input as { prompt?: string }).prompt === `crash ${i}`,
      );
      expect(sent.map((r) => r.id)).toEqual([done[i]!.provider_job_id]);
    }
    // One output file each, one charge each (flux-schnell: 1 credit a job).
    for (const job of done) {
      const files = await client.listFiles({ query: { job: job.id } });
      expect(files.data.map((f) => f.id)).toEqual([job.output!.outputs[0]!.file_id]);
    }
    expect((await client.getMe()).balance_cents).toBe(before - JOBS);
    expect(second.output()).toContain('resuming jobs whose run is gone');

    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  }, 180_000);
});
