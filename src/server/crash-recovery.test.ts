import fs from 'node:fs/promises';
import { createServer } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createClient } from '../client/create-client.ts';
import { freePort } from './db/embedded.ts';
import { startServerProcess } from './testing/server-process.ts';

const dirs: string[] = [];

afterAll(async () => {
  for (const dir of dirs) await fs.rm(dir, { recursive: true, force: true });
});

describe('a worker killed in the middle of a job', () => {
  it('is resumed after its lease by the next worker: one terminal state, one charge, one webhook', async () => {
    const hooks: string[] = [];
    const listener = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => {
        body += c.toString();
      });
      req.on('end', () => {
        hooks.push(body);
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const hookPort = (listener.address() as { port: number }).port;

    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mc-crash-job-'));
    dirs.push(dataDir);
    const port = await freePort();
    const env = {
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      ALLOW_PRIVATE_NETWORK: 'true',
      JOB_LEASE_SECONDS: '8', // longer than the slow job, so only the kill makes it run again
      QUEUE_MAINTENANCE_SECONDS: '1',
    };
    const first = startServerProcess(env);
    const firstPid = await first.ready;
    const anonymous = createClient({ baseUrl: `http://127.0.0.1:${port}/v2` });
    const email = 'crash@example.com';
    await anonymous.sendOtp({ body: { email } });
    const code = (await anonymous.devMailbox({ query: { to: email } })).data[0]!.code!;
    const { api_key } = await anonymous.verifyOtp({ body: { email, code } });
    const client = createClient({ baseUrl: `http://127.0.0.1:${port}/v2`, token: api_key });
    const done = async (id: string) => {
      for (let i = 0; i < 600; i++) {
        const job = await client.getJob({ params: { id } });
        if (['completed', 'failed', 'cancelled'].includes(job.status)) return job;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`job ${id} did not finish`);
    };
    // A 4096 px picture, whose 2x upscale takes seconds: long enough to kill the worker in the middle.
    const sketch = await done(
      (await client.createImage({ body: { model: 'local-sketch', prompt: 'big' } })).id,
    );
    const big = await done(
      (
        await client.createImage({
          body: {
            model: 'local-upscale',
            files: [{ url: sketch.output!.outputs[0]!.url! }],
            provider_options: { local: { factor: 4 } },
          },
        })
      ).id,
    );
    const slow = await client.createImage({
      body: {
        model: 'local-upscale',
        files: [{ url: big.output!.outputs[0]!.url! }],
        provider_options: { local: { factor: 2 } },
        options: { webhook_url: `http://127.0.0.1:${hookPort}/hook` },
      },
    });
    for (let i = 0; i < 400; i++) {
      if ((await client.getJobStatus({ params: { id: slow.id } })).status === 'running') break;
      await new Promise((r) => setTimeout(r, 10));
    }
    expect((await client.getJobStatus({ params: { id: slow.id } })).status).toBe('running');
    process.kill(firstPid, 'SIGKILL');
    await first.exited;

    const second = startServerProcess(env);
    await second.ready;
    const finished = await done(slow.id);
    expect(finished.status).toBe('completed');
    expect(finished.output?.outputs[0]?.media_type).toBe('image/png');

    // Sign-up 1000; the sketch costs 1, each upscale 2: the killed run was charged once, its hold not lost.
    expect((await client.getMe()).balance_cents).toBe(1000 - 1 - 2 - 2);
    for (let i = 0; i < 100 && hooks.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 1500)); // a second delivery, if there were one, would land by now
    expect(hooks).toHaveLength(1);
    expect(JSON.parse(hooks[0]!)).toMatchObject({
      type: 'job.completed',
      data: { id: slow.id, status: 'completed' },
    });

    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
    listener.close();
  }, 120_000);
});
