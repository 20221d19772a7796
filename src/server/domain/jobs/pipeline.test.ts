import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, type TestApp } from '../../testing/test-app.ts';
import { waitForTerminal } from '../../testing/wait-for-terminal.ts';

let t: TestApp;
let client: ReturnType<TestApp['clientFor']>;

beforeAll(async () => {
  t = await createTestApp();
  client = t.clientFor((await signUp(t)).api_key);
});
afterAll(() => t.close());

async function bytesAt(url: string): Promise<Buffer> {
  const response = await t.request(new URL(url).pathname);
  return Buffer.from(await response.arrayBuffer());
}

const steps = (prompt: string) => [
  { id: 'sketch', tool: 'image', input: { model: 'local-sketch', prompt, aspect_ratio: '1:1' } },
  {
    id: 'bigger',
    tool: 'image',
    input: {
      model: 'local-upscale',
      files: [{ url: '{{steps.sketch.output.url}}' }],
      provider_options: { local: { factor: 2 } },
    },
  },
];

describe('pipelines', () => {
  it("runs each step as its own billed job, feeding outputs forward, and ends with the last step's output", async () => {
    const created = await client.runPipeline({ body: { steps: steps('a kite over the sea') } as never });
    expect(created.estimated_cost_cents).toBe(0);
    const done = await waitForTerminal(client, created.id);
    expect(done.status).toBe('completed');

    const recorded = (
      done.progress_metadata as { steps: Array<{ id: string; job_id: string; status: string }> }
    ).steps;
    expect(recorded.map((s) => [s.id, s.status])).toEqual([
      ['sketch', 'completed'],
      ['bigger', 'completed'],
    ]);
    const sketch = await client.getJob({ params: { id: recorded[0]!.job_id } });
    const bigger = await client.getJob({ params: { id: recorded[1]!.job_id } });
    expect(bigger.input.files).toEqual([{ url: sketch.output!.outputs[0]!.url }]);
    expect(done.output!.outputs[0]!.file_id).toBe(bigger.output!.outputs[0]!.file_id);
    expect((sketch.actual_cost_cents ?? 0) + (bigger.actual_cost_cents ?? 0)).toBeGreaterThan(0);
    // The pipeline costs what its steps were charged.
    expect(done.actual_cost_cents).toBe((sketch.actual_cost_cents ?? 0) + (bigger.actual_cost_cents ?? 0));

    const small = await sharp(await bytesAt(sketch.output!.outputs[0]!.url!)).metadata();
    const large = await sharp(await bytesAt(done.output!.outputs[0]!.url!)).metadata();
    expect(large.width).toBe(small.width! * 2);
  });

  it('fails with step_failed naming the step when a step cannot run', async () => {
    const created = await client.runPipeline({
      body: {
        steps: [
          { id: 'first', tool: 'image', input: { model: 'local-sketch', prompt: 'x' } },
          { id: 'second', tool: 'image', input: { model: 'local-upscale', prompt: 'no source image' } },
        ],
      } as never,
    });
    const done = await waitForTerminal(client, created.id);
    expect(done.status).toBe('failed');
    expect(done.error).toMatchObject({ code: 'step_failed' });
    expect(JSON.stringify(done.error)).toContain('second');
  });
});
