import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runJobDeps } from '../../run-job-deps.ts';
import { createTestApp, signUp, type TestApp } from '../../testing/test-app.ts';
import { runJob } from '../jobs/run-job.ts';

/*
 * A deprecation turns into a retirement on its day, with the server running: tts-1 is deprecated with
 * OpenAI's shutdown day 2027-01-06 and eleven-flash-v2.5 as its replacement (catalog/models/audio.ts).
 * The catalog's clock is moved by hand; nothing waits.
 */
let today = new Date('2027-01-05T23:59:00Z');
let t: TestApp;
let key: string;

beforeAll(async () => {
  // Nothing answers at this OpenAI address: a job that reached the provider would fail another way.
  t = await createTestApp(
    { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' },
    { work: false, now: () => today },
  );
  key = (await signUp(t)).api_key;
});
afterAll(() => t?.close());

const pricingOf = async (model: string) => {
  const { data } = await t.clientFor(null).getPricing();
  return data.find((e) => e.model === model)!;
};
const speechModel = async (model: string) => {
  const tool = await t.clientFor(key).getTool({ params: { tool_key: 'speech' }, query: { model } });
  return tool.models.find((m) => m.model === model)!;
};

describe('the day a model retires', () => {
  it('stops listing it as available in /v2/pricing and /v2/tools without a restart', async () => {
    today = new Date('2027-01-05T23:59:00Z');
    expect(await pricingOf('tts-1')).toMatchObject({
      available: true,
      lifecycle: { status: 'deprecated', retires_on: '2027-01-06' },
    });
    expect(await speechModel('tts-1')).toMatchObject({ available: true });

    today = new Date('2027-01-06T00:00:01Z');
    const retired = await pricingOf('tts-1');
    expect(retired).toMatchObject({
      available: false,
      lifecycle: { status: 'retired', retired_on: '2027-01-06', replacement: 'eleven-flash-v2.5' },
    });
    expect(retired.providers.every((p) => !p.available)).toBe(true);
    expect(await speechModel('tts-1')).toMatchObject({ available: false });
  });

  it('fails a job queued the day before with model_retired, its hold returned, naming the replacement', async () => {
    today = new Date('2027-01-05T22:00:00Z');
    const client = t.clientFor((await signUp(t)).api_key);
    const before = (await client.getMe()).balance_cents;
    const queued = await client.createSpeech({
      body: { model: 'tts-1', text: 'Good night.', voice: 'alloy' },
    });
    expect((await client.getMe()).balance_cents).toBeLessThan(before);

    today = new Date('2027-01-06T08:00:00Z');
    await runJob(t.services, runJobDeps(t.services), queued.id);

    const job = await client.getJob({ params: { id: queued.id } });
    expect(job).toMatchObject({ status: 'failed', error: { code: 'model_retired' } });
    expect(job.error?.message).toContain('2027-01-06');
    expect(job.error?.message).toContain('eleven-flash-v2.5');
    expect((await client.getMe()).balance_cents).toBe(before);
    const row = await t.db.query('SELECT provider_sent_at, held_cents FROM jobs WHERE id = $1', [queued.id]);
    expect(row.rows[0]).toEqual({ provider_sent_at: null, held_cents: 0 });
  });
});
