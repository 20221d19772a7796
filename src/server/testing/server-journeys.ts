import { createServer } from 'node:http';
import { type Client, createClient } from '../../client/create-client.ts';

/**
 * Signs a person in on a running server through the dev mailbox; answers a client using their API key,
 * the key, and the app session's token (for the endpoints a key may not call, such as creating keys).
 */
export async function signInOn(
  baseUrl: string,
  email: string,
): Promise<Client & { apiKey: string; accessToken: string }> {
  const anonymous = createClient({ baseUrl: `${baseUrl}/v2` });
  await anonymous.sendOtp({ body: { email } });
  const code = (await anonymous.devMailbox({ query: { to: email } })).data[0]!.code!;
  const { api_key, access_token } = await anonymous.verifyOtp({ body: { email, code } });
  return Object.assign(createClient({ baseUrl: `${baseUrl}/v2`, token: api_key }), {
    apiKey: api_key,
    accessToken: access_token,
  });
}

const TERMINAL = ['completed', 'failed', 'cancelled'];

/** Polls a job until it is terminal; throws after `ms` (far below any lease the callers set). */
export async function waitForJob(client: Client, id: string, ms = 60_000) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const job = await client.getJob({ params: { id } }).catch(() => null);
    if (job && TERMINAL.includes(job.status)) return job;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`job ${id} did not finish within ${ms} ms`);
}

/** A 4096 px picture (a sketch upscaled 4x; costs 1 + 2), whose 2x upscale takes seconds. */
export async function makeBigPicture(client: Client, prompt = 'big'): Promise<string> {
  const sketch = await waitForJob(
    client,
    (await client.createImage({ body: { model: 'local-sketch', prompt } })).id,
  );
  const big = await waitForJob(
    client,
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
  return big.output!.outputs[0]!.url!;
}

/**
 * Starts a local job that takes seconds (a 2x upscale of a big picture: long enough to stop its server
 * in the middle) and waits until it runs. Costs: 1 + 2 for the picture, 2 for the job.
 */
export async function startSlowJob(client: Client, webhookUrl?: string) {
  const slow = await client.createImage({
    body: {
      model: 'local-upscale',
      files: [{ url: await makeBigPicture(client) }],
      provider_options: { local: { factor: 2 } },
      ...(webhookUrl ? { options: { webhook_url: webhookUrl } } : {}),
    },
  });
  // Running, not merely created: a test that then moves the run (its instance, its lease) must find one.
  // On a loaded machine the claim can take seconds, so wait for it rather than for a fixed number of polls.
  const deadline = Date.now() + 60_000;
  for (;;) {
    const { status } = await client.getJobStatus({ params: { id: slow.id } });
    if (status === 'running') return slow;
    if (status !== 'queued' && status !== 'submitting')
      throw new Error(`the slow job ended ${status} before it ran`);
    if (Date.now() > deadline) throw new Error('the slow job did not start running within 60 s');
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** A local webhook receiver that records every body it is sent. */
export async function startHookReceiver() {
  const bodies: string[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => {
      body += c.toString();
    });
    req.on('end', () => {
      bodies.push(body);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    bodies,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
