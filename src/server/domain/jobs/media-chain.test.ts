import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Transcript } from '../../../contract/transcript.ts';
import { VideoAnalysisReport } from '../../../contract/video-analysis.ts';
import { needsProgram, POCKETSPHINX } from '../../testing/optional-program.ts';
import { createTestApp, signUp, type TestApp } from '../../testing/test-app.ts';
import { waitForTerminal } from '../../testing/wait-for-terminal.ts';

/*
 * The local engines through the whole server, each feeding the next: speech becomes the audio of a
 * transcription, a generated video the input of an analysis. Outputs are checked in the spec's envelope.
 */

let t: TestApp;
let client: ReturnType<TestApp['clientFor']>;
beforeAll(async () => {
  t = await createTestApp();
  client = t.clientFor((await signUp(t)).api_key);
});
afterAll(() => t.close());

describe('local engines through the API', () => {
  it('transcribes speech it made: inline transcript first, a WebVTT file second, billed by the minute', async (context) => {
    needsProgram(POCKETSPHINX, context);
    const speech = await waitForTerminal(
      client,
      (
        await client.createSpeech({
          body: { model: 'local-flite', text: 'hello world this is a test', voice: 'kal16' },
        })
      ).id,
    );
    expect(speech.status).toBe('completed');
    const audioUrl = speech.output!.outputs[0]!.url!;

    const job = await waitForTerminal(
      client,
      (
        await client.createTranscription({
          body: { model: 'local-pocketsphinx', audio_url: audioUrl, language: 'en' },
        })
      ).id,
      // PocketSphinx is the heaviest engine here: on a machine shared with other work it needs longer.
      50_000,
    );
    expect(job.status).toBe('completed');
    const [inline, vtt] = job.output!.outputs;
    expect(inline).toMatchObject({ url: null, file_id: null, media_type: 'application/json' });
    const transcript = Transcript.parse(inline!.data);
    expect(transcript.segments.length).toBeGreaterThan(0);
    expect(transcript.text.toLowerCase()).toMatch(/hello|world|test/);
    expect(vtt).toMatchObject({ media_type: 'text/vtt' });
    expect(job.pricing.billed_units!.minutes).toBeCloseTo(transcript.duration_seconds / 60, 3);
  }, 60_000);

  it('analyzes a video it made: the report inline and no file, then the same request from the cache for free', async () => {
    const video = await waitForTerminal(
      client,
      (await client.createVideo({ body: { model: 'local-motion', prompt: 'a harbour', duration: 2 } })).id,
    );
    expect(video.status).toBe('completed');
    const body = { video_url: video.output!.outputs[0]!.url! };

    const first = await waitForTerminal(client, (await client.analyzeVideo({ body })).id);
    expect(first.status).toBe('completed');
    expect(first.output!.outputs).toHaveLength(1);
    const entry = first.output!.outputs[0]!;
    expect(entry).toMatchObject({ url: null, file_id: null, media_type: 'application/json' });
    const report = VideoAnalysisReport.parse(entry.data);
    expect(report.facts.duration_seconds).toBeCloseTo(2, 0);
    expect(report.facts.video?.codec).toBe('h264');
    expect(report.summary.length).toBeGreaterThan(20);
    expect(first.actual_cost_cents).toBeGreaterThan(0);

    const again = await waitForTerminal(client, (await client.analyzeVideo({ body })).id);
    expect(again.pricing.cached).toBe(true);
    expect(again.actual_cost_cents).toBe(0);
    expect(again.output).toEqual(first.output);
  });
});
