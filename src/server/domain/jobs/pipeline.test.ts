import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PipelineStepState } from '../../../contract/pipeline-graph.ts';
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
    const before = await client.getBalance();
    const created = await client.runPipeline({ body: { steps: steps('a kite over the sea') } as never });
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
    // The pipeline costs what its steps were charged, and was estimated at the sum of their estimates.
    expect(done.actual_cost_cents).toBe((sketch.actual_cost_cents ?? 0) + (bigger.actual_cost_cents ?? 0));
    expect(created.estimated_cost_cents).toBe(sketch.estimated_cost_cents + bigger.estimated_cost_cents);
    expect(created.estimated_cost_cents).toBeGreaterThan(0);
    // Held by its steps only, never by the pipeline too: the balance moved by the charges alone.
    expect((await client.getBalance()).balance_cents).toBe(before.balance_cents - done.actual_cost_cents!);

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

  it('says on a step that failed while running that its hold came back, and on the others what they cost', async () => {
    const created = await client.runPipeline({
      body: {
        steps: [
          { id: 'still', tool: 'image', input: { model: 'local-sketch', prompt: `a still ${Date.now()}` } },
          // A picture is no video: the trim starts, holds its estimate, and fails.
          {
            id: 'trim',
            tool: 'video',
            input: { model: 'local-video-trim', files: [{ url: '{{steps.still.output.url}}' }] },
          },
        ],
      } as never,
    });
    const done = await waitForTerminal(client, created.id);
    expect(done.status).toBe('failed');
    const [still, trim] = (done.progress_metadata as { steps: PipelineStepState[] }).steps;
    expect(trim).toMatchObject({ status: 'failed', charged_cents: 0 });
    expect(trim!.job_id).not.toBeNull();
    expect(trim!.estimated_cost_cents).toBeGreaterThan(0);
    expect(still).toMatchObject({ status: 'completed', charged_cents: still!.estimated_cost_cents });
    expect(done.actual_cost_cents).toBe(still!.charged_cents);
    expect(created.estimated_cost_cents).toBe(still!.estimated_cost_cents! + trim!.estimated_cost_cents!);
  });
});
