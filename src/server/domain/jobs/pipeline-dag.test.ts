import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Job } from '../../../contract/jobs.ts';
import { PIPELINE_DEPTH_MAX, type PipelineStepState } from '../../../contract/pipeline-graph.ts';
import { makeBigPicture, waitForJob } from '../../testing/server-journeys.ts';
import { createTestApp, signUp, type TestApp } from '../../testing/test-app.ts';

/*
 * Pipelines as a DAG through the whole server: steps wait for what they use, a failed step stops only
 * what depends on it, a cancel stops the running steps, and the pipeline costs what its steps cost.
 */

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

async function signedIn() {
  const { api_key } = await signUp(t);
  return { client: t.clientFor(api_key), apiKey: api_key };
}

const stepsOf = (job: { progress_metadata: unknown }) =>
  ((job.progress_metadata as { steps?: PipelineStepState[] }).steps ?? []) as PipelineStepState[];

const speech = { model: 'local-flite', text: 'The harbour at dawn.', voice: 'kal16' };
const music = { model: 'local-procedural-music', prompt: 'calm piano', duration: 2 };
const card = (audio: string[]) => ({
  model: 'local-render',
  width: 320,
  height: 180,
  fps: 10,
  duration: 2,
  layers: [
    { type: 'text', text: 'Harbour', font_size: 32 },
    ...audio.map((id) => ({ type: 'audio', url: `{{steps.${id}.output.url}}` })),
  ],
});

describe('a pipeline as a DAG', () => {
  it('runs speech and music side by side, then a render of both, with lineage across its steps and their cost as its own', async () => {
    const { client } = await signedIn();
    const before = (await client.getMe()).balance_cents;
    const created = await client.runPipeline({
      body: {
        steps: [
          { id: 'voice', tool: 'speech', input: speech },
          { id: 'tune', tool: 'music', input: music },
          { id: 'card', tool: 'render', input: card(['voice', 'tune']) },
        ],
      } as never,
    });
    const done = Job.parse(await waitForJob(client, created.id, 120_000));
    expect(done.status).toBe('completed');

    const steps = stepsOf(done);
    expect(steps.map((s) => [s.id, s.status, s.needs])).toEqual([
      ['voice', 'completed', []],
      ['tune', 'completed', []],
      ['card', 'completed', ['voice', 'tune']],
    ]);
    const jobs = await Promise.all(steps.map((s) => client.getJob({ params: { id: s.job_id! } })));
    const [voice, tune, render] = jobs;
    expect(render!.input.layers).toContainEqual(
      expect.objectContaining({ type: 'audio', url: voice!.output!.outputs[0]!.url }),
    );
    expect(done.output!.outputs.map((o) => o.file_id)).toEqual([render!.output!.outputs[0]!.file_id]);

    // Lineage: the rendered file was made from the speech and the music, each made by its step's job.
    const lineage = await client.getFileLineage({
      params: { id: render!.output!.outputs[0]!.file_id! },
      query: { depth: 3 },
    });
    const jobNodes = lineage.nodes.filter((n) => n.kind === 'job').map((n) => n.id);
    expect(new Set(jobNodes)).toEqual(new Set(jobs.map((j) => j!.id)));
    for (const step of [voice!, tune!]) {
      const file = step.output!.outputs[0]!.file_id!;
      expect(lineage.edges).toContainEqual({ from: step.id, to: file, relation: 'output' });
      expect(lineage.edges).toContainEqual({ from: file, to: render!.id, relation: 'input' });
    }

    const charges = jobs.map((j) => j!.actual_cost_cents ?? 0);
    expect(charges.every((c) => c > 0)).toBe(true);
    const total = charges.reduce((a, b) => a + b, 0);
    expect(done.actual_cost_cents).toBe(total);
    expect((await client.getMe()).balance_cents).toBe(before - total);
  }, 180_000);

  it('fails the steps behind a failed step, names it, still runs the independent ones and charges only what ran', async () => {
    const { client } = await signedIn();
    const before = (await client.getMe()).balance_cents;
    const created = await client.runPipeline({
      body: {
        steps: [
          { id: 'voice', tool: 'speech', input: speech },
          // An upscale of a sound: accepted, then fails when it runs.
          {
            id: 'bigger',
            tool: 'image',
            input: { model: 'local-upscale', files: [{ url: '{{steps.voice.output.url}}' }] },
          },
          { id: 'card', tool: 'render', needs: ['bigger'], input: card(['voice']) },
          { id: 'tune', tool: 'music', input: music },
        ],
      } as never,
    });
    const done = Job.parse(await waitForJob(client, created.id, 120_000));
    expect(done.status).toBe('failed');
    expect(done.error?.code).toBe('step_failed');
    expect(done.error?.message).toMatch(/^Step bigger \(image\) failed: /);
    expect(done.error?.message).toContain('Not run, as they depend on it: card.');

    const steps = stepsOf(done);
    expect(steps.map((s) => [s.id, s.status])).toEqual([
      ['voice', 'completed'],
      ['bigger', 'failed'],
      ['card', 'skipped'],
      ['tune', 'completed'],
    ]);
    const card_ = steps.find((s) => s.id === 'card')!;
    expect(card_.job_id).toBeNull();
    expect(card_.error).toBe('Not run: step bigger failed.');

    const ran = await Promise.all(
      steps.filter((s) => s.job_id).map((s) => client.getJob({ params: { id: s.job_id! } })),
    );
    expect(ran.map((j) => j.tool)).toEqual(['speech', 'image', 'music']);
    const charged = ran.reduce((sum, j) => sum + (j.actual_cost_cents ?? 0), 0);
    expect(ran.find((j) => j.tool === 'image')!.actual_cost_cents).toBe(0);
    expect(charged).toBeGreaterThan(0);
    expect(done.actual_cost_cents).toBe(charged);
    expect((await client.getMe()).balance_cents).toBe(before - charged);
  }, 180_000);

  it('cancelled mid-run cancels its running step, never starts the next, and costs what had finished', async () => {
    const { client } = await signedIn();
    const bigUrl = await makeBigPicture(client, 'a pipeline to cancel');
    const before = (await client.getMe()).balance_cents;
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
          { id: 'voice', tool: 'speech', needs: ['bigger'], input: speech },
        ],
      } as never,
    });
    let running: PipelineStepState | undefined;
    for (let i = 0; i < 400 && running?.status !== 'running'; i++) {
      running = stepsOf(await client.getJob({ params: { id: pipeline.id } }))[0];
      if (running?.status !== 'running') await new Promise((r) => setTimeout(r, 25));
    }
    expect(running?.status).toBe('running');

    await client.cancelJob({ params: { id: pipeline.id } });
    const step = await waitForJob(client, running!.job_id!);
    expect(step.status).toBe('cancelled');
    let done = await client.getJob({ params: { id: pipeline.id } });
    for (let i = 0; i < 200 && stepsOf(done)[1]?.status !== 'skipped'; i++) {
      await new Promise((r) => setTimeout(r, 25));
      done = await client.getJob({ params: { id: pipeline.id } });
    }
    expect(done.status).toBe('cancelled');
    expect(stepsOf(done).map((s) => [s.id, s.status, s.job_id === null])).toEqual([
      ['bigger', 'cancelled', false],
      ['voice', 'skipped', true],
    ]);
    expect(done.actual_cost_cents).toBe(0);
    expect((await client.getMe()).balance_cents).toBe(before);
    const speechJobs = await client.listJobs({ query: { tool: 'speech' } } as never);
    expect((speechJobs as { data: unknown[] }).data).toHaveLength(0);
  }, 120_000);
});

describe('the DAG rules at their edges', () => {
  async function post(body: unknown) {
    const { apiKey } = await signedIn();
    const response = await t.request('/v2/pipeline', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
      body: JSON.stringify(body),
    });
    return {
      status: response.status,
      body: (await response.json()) as { error: { code: string; message: string; details?: unknown } },
    };
  }
  const sketch = (id: string, extra: Record<string, unknown> = {}) => ({
    id,
    tool: 'image',
    ...extra,
    input: { model: 'local-sketch', prompt: id },
  });
  const upscaleOf = (id: string, source: string) => ({
    id,
    tool: 'image',
    input: { model: 'local-upscale', files: [{ url: `{{steps.${source}.output.url}}` }] },
  });
  const chain = (length: number) =>
    Array.from({ length }, (_, i) => (i === 0 ? sketch('s0') : upscaleOf(`s${i}`, `s${i - 1}`)));
  const refused = (body: { error: unknown }) => JSON.stringify(body.error);

  it(`accepts a chain ${PIPELINE_DEPTH_MAX} steps deep and refuses one step deeper, naming the step`, async () => {
    expect((await post({ steps: chain(PIPELINE_DEPTH_MAX) })).status).toBe(202);
    const deeper = await post({ steps: chain(PIPELINE_DEPTH_MAX + 1) });
    expect(deeper.status).toBe(422);
    expect(deeper.body.error).toMatchObject({ code: 'invalid_request' });
    expect(refused(deeper.body)).toContain(`steps.${PIPELINE_DEPTH_MAX}.input`);
    expect(refused(deeper.body)).toContain(`is ${PIPELINE_DEPTH_MAX + 1} steps deep`);
  });

  it('accepts 10 steps and refuses 11', async () => {
    const ten = Array.from({ length: 10 }, (_, i) => sketch(`s${i}`));
    expect((await post({ steps: ten })).status).toBe(202);
    const eleven = await post({ steps: [...ten, sketch('s10')] });
    expect(eleven.status).toBe(422);
    expect(refused(eleven.body)).toContain('steps');
  });

  it('refuses a cycle, a step needing itself and a step needing one not in the run', async () => {
    const cycle = await post({ steps: [sketch('a', { needs: ['b'] }), sketch('b', { needs: ['a'] })] });
    expect(cycle.status).toBe(422);
    expect(refused(cycle.body)).toContain('cycle: a → b → a');
    expect(refused(cycle.body)).toContain('steps.0.needs');

    const self = await post({ steps: [upscaleOf('a', 'a')] });
    expect(self.status).toBe(422);
    expect(refused(self.body)).toContain('cycle: a → a');

    const unknown = await post({ steps: [sketch('a', { needs: ['ghost'] })] });
    expect(unknown.status).toBe(422);
    expect(refused(unknown.body)).toContain('refers to ghost, which is not a step');
    expect(refused(unknown.body)).toContain('steps.0.needs');

    const unknownRef = await post({ steps: [upscaleOf('a', 'ghost')] });
    expect(unknownRef.status).toBe(422);
    expect(refused(unknownRef.body)).toContain('steps.0.input');
  });

  it('lets a step use one listed after it: order does not matter, dependencies do', async () => {
    const { client } = await signedIn();
    const created = await client.runPipeline({
      body: { steps: [upscaleOf('bigger', 'sketch'), sketch('sketch')] } as never,
    });
    const done = await waitForJob(client, created.id, 60_000);
    expect(done.status).toBe('completed');
    expect(stepsOf(done).map((s) => [s.id, s.status])).toEqual([
      ['bigger', 'completed'],
      ['sketch', 'completed'],
    ]);
  }, 60_000);
});

describe('the published pipeline and render inputs', () => {
  it('are in the OpenAPI document and on GET /v2/tools/{key}, with needs, the step tools and the render layers', async () => {
    const document = (await (await t.request('/v2/openapi.json')).json()) as {
      components: { schemas: Record<string, { properties: Record<string, unknown> }> };
    };
    const step = document.components.schemas.PipelineStep!;
    expect(Object.keys(step.properties)).toEqual(['id', 'tool', 'needs', 'input']);
    expect(document.components.schemas.RenderRequest!.properties.layers).toBeTruthy();

    const { client } = await signedIn();
    const pipeline = await client.getTool({ params: { tool_key: 'pipeline' } });
    const defs = pipeline.input_schema.$defs as Record<
      string,
      { properties: Record<string, { enum?: string[]; type?: string }> }
    >;
    const published = defs.PipelineStep!.properties;
    expect(published.needs?.type).toBe('array');
    expect(published.tool?.enum).not.toContain('pipeline');
    const render = await client.getTool({ params: { tool_key: 'render' } });
    expect(render.input_schema.required).toEqual(expect.arrayContaining(['duration', 'layers']));
  });
});
