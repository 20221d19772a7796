import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Job } from '../../../contract/jobs.ts';
import { Transcript } from '../../../contract/transcript.ts';
import { createTestApp, signUp, TEST_PUBLIC_URL, type TestApp } from '../../testing/test-app.ts';
import { type FalProtocolServer, startFalProtocolServer } from './testing/fal-protocol-server.ts';
import { PNG } from './testing/fal-replicate-test-media.ts';
import { type OpenAIProtocolServer, startOpenAIServer } from './testing/openai-protocol-server.ts';

/*
 * External providers through the whole server: the HTTP API, the queue, the remote driver, the adapter,
 * a local server answering as the provider's documentation shows, and our file storage for the outputs.
 */

let fal: FalProtocolServer;
let openai: OpenAIProtocolServer;
let t: TestApp;
let client: ReturnType<TestApp['clientFor']>;

beforeAll(async () => {
  fal = await startFalProtocolServer('fal-test-key');
  openai = await startOpenAIServer('sk-test-key');
  t = await createTestApp({
    FAL_KEY: 'fal-test-key',
    FAL_QUEUE_URL: fal.url,
    OPENAI_API_KEY: 'sk-test-key',
    OPENAI_BASE_URL: openai.url,
    // The stand-in providers serve their outputs on loopback.
    ALLOW_PRIVATE_NETWORK: 'true',
  });
  client = t.clientFor((await signUp(t)).api_key);
});
afterAll(async () => {
  await t.close();
  await fal.close();
  await openai.close();
});

async function waitFor(id: string, done: (job: Job) => boolean) {
  // A deadline, not a count of polls: each poll is slower on a loaded machine.
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const job = Job.parse(await client.getJob({ params: { id } }));
    if (done(job)) return job;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`job ${id} did not get there`);
}
const terminal = (job: Job) => ['completed', 'failed', 'cancelled'].includes(job.status);

describe('jobs on external providers', () => {
  it('runs a fal job to completion: submitted, polled, output stored as our file, billed', async () => {
    fal.files.set('out.png', { body: PNG, contentType: 'image/png' });
    fal.behaviour.pollsBeforeDone = 2;
    fal.behaviour.neverFinish = false;
    const created = await client.createImage({
      body: { model: 'fal:flux-schnell', prompt: 'a red kite', aspect_ratio: '16:9' },
    });
    expect(created.provider_model).toBe('fal:flux-schnell');
    const done = await waitFor(created.id, terminal);
    expect(done.status).toBe('completed');
    expect(done.provider).toBe('fal');
    expect(done.provider_job_id).toMatch(/^req-/);
    expect(done.provider_status).toBe('COMPLETED');
    expect(done.pricing.billed_units).toEqual({ images: 1 });
    expect(done.actual_cost_cents).toBe(1); // 0.3 credits per image, rounded up per job

    const output = done.output!.outputs[0]!;
    expect(output.url!.startsWith(`${TEST_PUBLIC_URL}/media/`)).toBe(true);
    const stored = await t.request(new URL(output.url!).pathname);
    expect(Buffer.from(await stored.arrayBuffer()).equals(PNG)).toBe(true);

    const submitted = fal.requests.get(done.provider_job_id!)!;
    expect(submitted.modelId).toBe('fal-ai/flux/schnell');
    expect(submitted.input).toMatchObject({ prompt: 'a red kite', image_size: 'landscape_16_9' });
  });

  it('mirrors the provider state on refresh, and cancelling stops the job at the provider', async () => {
    fal.behaviour.neverFinish = true;
    try {
      const created = await client.createImage({ body: { model: 'fal:flux-dev', prompt: 'slow one' } });
      const running = await waitFor(created.id, (job) => job.provider_job_id !== null);
      const refreshed = await client.refreshJob({ params: { id: running.id } });
      expect(refreshed.provider_status).toBe('IN_PROGRESS');

      const cancelled = await client.cancelJob({ params: { id: created.id } });
      expect(cancelled.status).toBe('cancelled');
      const request = fal.requests.get(running.provider_job_id!)!;
      // The follower sees the cancel at its next ownership check (each second) and then tells fal: seconds
      // on a quiet machine, more on a loaded one (5 s was once too short in CI).
      await expect.poll(() => request.cancelled, { timeout: 20_000 }).toBe(true);
    } finally {
      // Never left on for the next test: its job would then never finish.
      fal.behaviour.neverFinish = false;
    }
  }, 60_000);

  it('fails with the provider error code and message when the provider fails the job', async () => {
    fal.behaviour.failure = { status: 422, detail: 'The prompt was flagged by the content checker.' };
    try {
      const created = await client.createImage({ body: { model: 'fal:flux-schnell', prompt: 'flagged' } });
      const done = await waitFor(created.id, terminal);
      expect(done.status).toBe('failed');
      expect(done.error).toMatchObject({ code: expect.stringMatching(/^provider_/) });
      expect(JSON.stringify(done.error)).toContain('content checker');
      expect(done.actual_cost_cents ?? 0).toBe(0);
    } finally {
      fal.behaviour.failure = null;
    }
  });

  it('runs a synchronous OpenAI speech job and bills the characters', async () => {
    const text = 'Hello from the reference server.';
    const created = await client.createSpeech({ body: { model: 'tts-1', text, voice: 'alloy' } });
    const done = await waitFor(created.id, terminal);
    expect(done.status).toBe('completed');
    expect(done.pricing.billed_units).toEqual({ thousand_characters: text.length / 1000 });
    expect(done.output!.outputs[0]!.media_type).toBe('audio/mpeg');
    const speech = openai.requests.find((r) => r.path.endsWith('/audio/speech'))!;
    expect(speech.headers.authorization).toBe('Bearer sk-test-key');
  });

  it("takes a provider's voice preset, sending the provider its own voice id", async () => {
    const { data } = await client.listPresets({ query: { namespace: 'openai', q: 'nova' } });
    const nova = data[0]!;
    expect(nova.tools.speech).toEqual({ model: 'tts-1', voice: nova.id });
    const before = openai.requests.length;
    const created = await client.createSpeech({
      body: { text: 'A preset voice.', ...nova.tools.speech } as never,
    });
    expect((await waitFor(created.id, terminal)).status).toBe('completed');
    const sent = openai.requests.slice(before).find((r) => r.path.endsWith('/audio/speech'))!;
    expect(sent.json).toMatchObject({ voice: 'nova', input: 'A preset voice.' });

    const local = (await client.listPresets({ query: { namespace: 'local', type: 'voice', limit: 1 } }))
      .data[0]!;
    const wrong = await client.createSpeech({ body: { model: 'tts-1', text: 'x', voice: local.id } }).then(
      () => null,
      (e: unknown) => e as { status: number; message: string },
    );
    expect(wrong).toMatchObject({ status: 422 });
    expect(wrong!.message).toContain('is a local voice');
  });

  it('transcribes with OpenAI into the same inline transcript shape as the local engine', async () => {
    const speech = await waitFor(
      (await client.createSpeech({ body: { model: 'local-flite', text: 'Hello there.' } })).id,
      terminal,
    );
    const created = await client.createTranscription({
      body: { model: 'whisper-1', audio_url: speech.output!.outputs[0]!.url!, language: 'en' },
    });
    const done = await waitFor(created.id, terminal);
    expect(done.status).toBe('completed');
    const transcript = Transcript.parse(done.output!.outputs[0]!.data);
    expect(transcript.segments.length).toBeGreaterThan(0);
    expect(done.pricing.billed_units!.minutes).toBeGreaterThan(0);
    const upload = openai.requests.find((r) => r.path.endsWith('/audio/transcriptions'))!;
    expect(upload.form?.model).toEqual(['whisper-1']);
  });

  it('refuses options the model does not document, before any job is made', async () => {
    const error = await client
      .createImage({ body: { model: 'flux-schnell', prompt: 'x', provider_options: { fal: { steps: 4 } } } })
      .then(
        () => null,
        (e: unknown) => e as { status: number; code: string },
      );
    expect(error).toMatchObject({ status: 422, code: 'invalid_request' });
  });
});
