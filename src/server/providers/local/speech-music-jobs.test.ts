import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, type TestApp } from '../../testing/test-app.ts';
import { waitForTerminal } from '../../testing/wait-for-terminal.ts';

/** The speech and music engines behind the HTTP API: a preset's fragment merged into a request just works. */

let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await createTestApp({ SIGNUP_CREDITS: '1000' });
  key = (await signUp(t)).api_key;
});
afterAll(() => t.close());

describe('speech and music jobs', () => {
  it("speaks with a preset's ready-to-merge fragment", async () => {
    const { data } = await t.clientFor(null).listPresets({ query: { metadata: 'voice:rms' } });
    const fragment = data[0]!.tools.speech as { model: string; voice: string };
    const text = 'Presets fill in the voice.';
    const created = await t.clientFor(key).createSpeech({ body: { ...fragment, text } });
    const job = await waitForTerminal(t.clientFor(key), created.id);
    expect(job).toMatchObject({ status: 'completed', provider_model: 'local:local-flite' });
    expect(job.pricing.billed_units).toEqual({ thousand_characters: text.length / 1000 });
    expect(job.output?.outputs[0]).toMatchObject({ media_type: 'audio/mpeg' });
    const audio = await t.request(new URL(job.output!.outputs[0]!.url!).pathname);
    expect(audio.status).toBe(200);
    expect((await audio.arrayBuffer()).byteLength).toBeGreaterThan(5000);
  });

  it('fails a job with an unknown voice, naming the voices', async () => {
    const created = await t
      .clientFor(key)
      .createSpeech({ body: { model: 'local-espeak', text: 'Hi.', voice: 'martian' } });
    const job = await waitForTerminal(t.clientFor(key), created.id);
    expect(job.status).toBe('failed');
    expect(job.error).toMatchObject({ code: 'invalid_input', message: expect.stringContaining('en-us') });
  });

  it('makes music of the asked duration, billed per second', async () => {
    const created = await t.clientFor(key).createMusic({
      body: {
        model: 'local-procedural-music',
        prompt: 'calm piano',
        duration: 3,
        provider_options: { local: { seed: 1 } },
      },
    });
    const job = await waitForTerminal(t.clientFor(key), created.id);
    expect(job).toMatchObject({ status: 'completed', pricing: { billed_units: { seconds: 3 } } });
    expect(job.output?.outputs[0]).toMatchObject({ media_type: 'audio/mpeg' });
  });
});
