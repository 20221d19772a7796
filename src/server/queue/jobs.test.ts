import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createLogger } from '../logger.ts';
import type { Services } from '../services.ts';
import { runJobQueueJob } from './jobs.ts';
import { queueJob } from './queue-job.ts';

function servicesLogging(lines: string[]): Services {
  const log = createLogger('warn', (line) => lines.push(line));
  return { log } as Services;
}

describe('queue jobs', () => {
  it('hand their handler the data their schema parsed, and drop a message that does not parse', async () => {
    const seen: Array<{ n: number }> = [];
    const job = queueJob({
      name: 'test-queue',
      schema: z.object({ n: z.int() }),
      handler: async (_services, data) => {
        seen.push(data);
      },
    });
    const lines: string[] = [];
    const services = servicesLogging(lines);
    await job.handle(services, { n: 3, extra: true });
    await job.handle(services, { n: 'three' });
    expect(seen).toEqual([{ n: 3 }]);
    expect(lines.join('\n')).toContain('queue message with bad data dropped');
  });

  it('refuse a job message whose id is not a job id before any run starts', async () => {
    const lines: string[] = [];
    await runJobQueueJob.handle(servicesLogging(lines), { jobId: 'not-a-job' });
    expect(lines.join('\n')).toContain('"queue":"job-run"');
  });
});
