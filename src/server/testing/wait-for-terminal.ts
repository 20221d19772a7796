import type { Client } from '../../client/create-client.ts';
import { Job } from '../../contract/jobs.ts';
import { sleep } from './until.ts';

const TERMINAL: ReadonlySet<string> = new Set(['completed', 'failed', 'cancelled']);

/**
 * Polls a job through the API until it is completed, failed or cancelled, and answers it parsed by the
 * contract. Fails after `timeoutMs` saying where the job stood, rather than running into the test's
 * own timeout (30 s): keep it below that.
 */
export async function waitForTerminal(client: Client, id: string, timeoutMs = 20_000): Promise<Job> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = await client.getJob({ params: { id } });
    if (TERMINAL.has(job.status)) return Job.parse(job);
    if (Date.now() > deadline) throw new Error(`job ${id} still ${job.status} after ${timeoutMs} ms`);
    await sleep(50);
  }
}
