import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunOutput } from '../../domain/jobs/provider.ts';
import { FLITE_VOICES } from '../../domain/presets/speech-voices.ts';
import { AbortError, EngineInputError } from './engine-run.ts';
import { contextOf, failure, inputFor, probeOutput } from './engine-test-support.ts';
import { testFfmpeg } from './ffmpeg-test-media.ts';
import { createSpeechJob } from './speech-engine.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'speech-engine-test-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const jobs = {
  flite: createSpeechJob('flite', { binary: testFfmpeg }),
  'espeak-ng': createSpeechJob('espeak-ng', { binary: testFfmpeg }),
};

const SENTENCE = 'The quick brown fox jumps over the lazy dog. ';
const textOf = (length: number) => SENTENCE.repeat(Math.ceil(length / SENTENCE.length)).slice(0, length);

function fileOf(output: RunOutput | undefined) {
  if (output?.kind !== 'file') throw new Error('expected a file output');
  return output;
}

async function speak(engine: 'flite' | 'espeak-ng', body: Record<string, unknown>, signal?: AbortSignal) {
  const { context, progress } = contextOf(signal);
  const result = await jobs[engine](inputFor(engine, { model: 'x', ...body }), context);
  const output = fileOf(result.outputs[0]);
  return { result, output, progress, probed: await probeOutput(dir, output.name, output.data) };
}

describe('flite engine', () => {
  it('speaks the text as MP3 in the default voice (slt, 16 kHz), billed per thousand characters', async () => {
    const text = textOf(60);
    const { result, output, probed, progress } = await speak('flite', { text });
    expect(output).toMatchObject({ mediaType: 'audio/mpeg', name: 'speech.mp3' });
    expect(probed.audio).toMatchObject({ codec_name: 'mp3', sample_rate: '16000' });
    expect(probed.seconds).toBeGreaterThan(2);
    expect(result.billedUnits).toEqual({ thousand_characters: 0.06 });
    expect(progress.map(([, message]) => message)).toEqual(
      expect.arrayContaining(['Speaking', 'Encoding MP3']),
    );
  });

  it('takes longer to say longer text, in pieces', async () => {
    const short = await speak('flite', { text: textOf(20), voice: 'kal16' });
    const long = await speak('flite', { text: textOf(1000), voice: 'kal16' });
    expect(long.probed.seconds).toBeGreaterThan(short.probed.seconds * 20);
    expect(long.progress.map(([, message]) => message)).toContain('Speaking part 3 of 3');
  });

  it('gives each voice its own sound, accepts a preset id for a voice, and resamples kal to 16 kHz', async () => {
    const text = 'Hello there.';
    const slt = await speak('flite', { text, voice: 'slt' });
    const rms = await speak('flite', { text, voice: 'RMS' });
    const kal = await speak('flite', { text, voice: 'kal' });
    expect(rms.output.data.equals(slt.output.data)).toBe(false);
    expect(kal.probed.audio?.sample_rate).toBe('16000');
    const preset = FLITE_VOICES.find((v) => v.name === 'rms')!.presetId;
    const byPreset = await speak('flite', { text, voice: preset });
    expect(byPreset.output.data.equals(rms.output.data)).toBe(true);
  });

  it('speaks faster at a higher rate', async () => {
    const text = textOf(80);
    const normal = await speak('flite', { text, voice: 'kal16' });
    const fast = await speak('flite', { text, voice: 'kal16', provider_options: { local: { rate: 2 } } });
    expect(fast.probed.seconds).toBeLessThan(normal.probed.seconds * 0.7);
  });

  it('refuses an unknown voice, naming the valid ones, and a preset of the other engine', async () => {
    const unknown = await failure(speak('flite', { text: 'Hi.', voice: 'nobody' }));
    expect(unknown).toBeInstanceOf(EngineInputError);
    expect(unknown.message).toContain('Unknown voice "nobody" for local-flite');
    expect(unknown.message).toContain('slt, rms, awb, kal16, kal');
    const espeakPreset = (await import('../../domain/presets/speech-voices.ts')).ESPEAK_VOICES[0]!.presetId;
    const other = await failure(speak('flite', { text: 'Hi.', voice: espeakPreset }));
    expect(other.message).toContain('use model local-espeak');
    // flite has no pitch option, and rates stop at 2.
    for (const local of [{ pitch: 10 }, { rate: 3 }]) {
      const error = await failure(speak('flite', { text: 'Hi.', provider_options: { local } }));
      expect(error).toBeInstanceOf(EngineInputError);
      expect(error.message).toContain('provider_options.local');
    }
  });

  it('says when there is nothing it can pronounce', async () => {
    const error = await failure(speak('flite', { text: '你好世界', voice: 'kal16' }));
    expect(error).toBeInstanceOf(EngineInputError);
    expect(error.message).toContain('English only');
  });
});

describe('espeak-ng engine', () => {
  it('speaks in the voice asked for (22.05 kHz MP3), with rate and pitch', async () => {
    const text = textOf(100);
    const en = await speak('espeak-ng', { text });
    expect(en.probed.audio).toMatchObject({ codec_name: 'mp3', sample_rate: '22050' });
    expect(en.result.billedUnits).toEqual({ thousand_characters: 0.1 });
    const fr = await speak('espeak-ng', { text, voice: 'fr-fr' });
    expect(fr.output.data.equals(en.output.data)).toBe(false);
    const slow = await speak('espeak-ng', { text, provider_options: { local: { rate: 0.5 } } });
    expect(slow.probed.seconds).toBeGreaterThan(en.probed.seconds * 1.5);
    const high = await speak('espeak-ng', { text, provider_options: { local: { pitch: 90 } } });
    expect(high.output.data.equals(en.output.data)).toBe(false);
  });

  it('speaks text that starts with a dash (not read as an option)', async () => {
    const { probed } = await speak('espeak-ng', { text: '-v fr --help', voice: 'en-gb' });
    expect(probed.seconds).toBeGreaterThan(0.5);
  });

  it('refuses an unknown voice, naming the valid ones', async () => {
    const error = await failure(speak('espeak-ng', { text: 'Hi.', voice: 'klingon-2' }));
    expect(error).toBeInstanceOf(EngineInputError);
    expect(error.message).toMatch(/Voices: af, am, an, .*en-us.*, yue-latn-jyutping/);
  });
});

describe('cancelling speech', () => {
  it.each(['flite', 'espeak-ng'] as const)('%s stops at once when the job is cancelled', async (engine) => {
    const controller = new AbortController();
    const { context, progress } = contextOf(controller.signal);
    const run = jobs[engine](
      inputFor(engine, { text: textOf(10_000), voice: engine === 'flite' ? 'slt' : 'en-us' }),
      {
        ...context,
        progress: (fraction, message) => {
          progress.push([fraction, message]);
          controller.abort();
        },
      },
    );
    const error = await failure(run);
    expect(error).toBeInstanceOf(AbortError);
    expect(progress).toHaveLength(1);
  });
});
