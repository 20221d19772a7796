import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AbortError, EngineInputError } from './engine-run.ts';
import { contextOf, failure, inputFor, probeOutput } from './engine-test-support.ts';
import { testFfmpeg } from './ffmpeg-test-media.ts';
import { createMusicJob } from './music-engine.ts';
import { parseWav } from './speech-wav.ts';

const run = promisify(execFile);
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'music-engine-test-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const job = createMusicJob({ binary: testFfmpeg });

async function music(body: Record<string, unknown>, signal?: AbortSignal) {
  const { context, progress } = contextOf(signal);
  const result = await job(
    inputFor('procedural-music', { model: 'local-procedural-music', ...body }),
    context,
  );
  const output = result.outputs[0];
  if (output?.kind !== 'file') throw new Error('expected a file output');
  return { result, output, progress };
}

const wavOf = (prompt: string, duration: number, local: Record<string, unknown> = {}) =>
  music({ prompt, duration, provider_options: { local: { format: 'wav', ...local } } });

/** Seconds of sound an MP3 decodes to (encoder delay and padding trimmed, as players do). */
async function decodedSeconds(file: string): Promise<number> {
  const { stdout } = await run(testFfmpeg(), ['-v', 'error', '-i', file, '-f', 's16le', '-ac', '2', '-'], {
    encoding: 'buffer',
    maxBuffer: 64 * 1024 * 1024,
  });
  return stdout.length / 4 / 44_100;
}

/** How many times a second the loudness jumps (drum hits, note starts) in 30 ms windows: a measure of pace. */
function onsetsPerSecond(wav: Buffer): number {
  const { data } = parseWav(wav);
  const window = 1323;
  const loudness: number[] = [];
  for (let at = 0; at + window * 4 <= data.length; at += window * 4) {
    let sum = 0;
    for (let i = 0; i < window * 2; i++) sum += Math.abs(data.readInt16LE(at + i * 2));
    loudness.push(sum / window);
  }
  let onsets = 0;
  for (let i = 3; i < loudness.length; i++) {
    const floor = Math.min(loudness[i - 1]!, loudness[i - 2]!, loudness[i - 3]!);
    if (loudness[i]! > floor * 1.4 && loudness[i]! - floor > 300) onsets++;
  }
  return onsets / (data.length / 4 / 44_100);
}

describe('procedural music engine', () => {
  it('writes exactly `duration` seconds of 44.1 kHz stereo MP3 by default (30 s), billed per second', async () => {
    const { output, result, progress } = await music({ prompt: 'calm piano slow', duration: 7 });
    expect(output).toMatchObject({ mediaType: 'audio/mpeg', name: 'music.mp3' });
    const probed = await probeOutput(dir, output.name, output.data);
    expect(probed.audio).toMatchObject({ codec_name: 'mp3', sample_rate: '44100', channels: 2 });
    expect(Math.abs(probed.seconds - 7)).toBeLessThan(0.05);
    expect(await decodedSeconds(probed.file)).toBeCloseTo(7, 2);
    expect(result.billedUnits).toEqual({ seconds: 7 });
    expect(progress[0]![1]).toMatch(/^Composing: [A-G]#? \w+, \d+ BPM, piano over \w+, no drums$/);
    expect(progress.map(([, m]) => m)).toContain('Encoding MP3');

    const byDefault = await music({ prompt: 'x', provider_options: { local: { format: 'wav' } } });
    expect(byDefault.result.billedUnits).toEqual({ seconds: 30 });
    const pcm = parseWav(byDefault.output.data);
    expect(pcm).toMatchObject({ sampleRate: 44_100, channels: 2 });
    expect(pcm.data.length).toBe(30 * 44_100 * 4);
  });

  it('writes WAV when asked, the same for the same seed and different for another seed or prompt', async () => {
    const a = await wavOf('fast energetic drums', 3, { seed: 11 });
    expect(a.output).toMatchObject({ mediaType: 'audio/wav', name: 'music.wav' });
    const again = await wavOf('fast energetic drums', 3, { seed: 11 });
    const otherSeed = await wavOf('fast energetic drums', 3, { seed: 12 });
    const otherPrompt = await wavOf('calm piano slow', 3, { seed: 11 });
    expect(again.output.data.equals(a.output.data)).toBe(true);
    expect(otherSeed.output.data.equals(a.output.data)).toBe(false);
    expect(otherPrompt.output.data.equals(a.output.data)).toBe(false);
    // Without a seed, the prompt is the seed: the same prompt gives the same piece.
    const unseeded = await wavOf('rainy night', 2);
    expect((await wavOf('rainy night', 2)).output.data.equals(unseeded.output.data)).toBe(true);
  });

  it('is not silent, and not clipped', async () => {
    const { data } = parseWav((await wavOf('epic cinematic strings', 6, { seed: 3 })).output.data);
    let peak = 0;
    let sum = 0;
    for (let at = 0; at < data.length; at += 2) {
      const sample = Math.abs(data.readInt16LE(at));
      peak = Math.max(peak, sample);
      sum += sample;
    }
    expect(sum / (data.length / 2)).toBeGreaterThan(800);
    expect(peak).toBeLessThan(32_767);
  });

  it('plays faster for an energetic prompt and follows provider_options.local.tempo', async () => {
    const calm = onsetsPerSecond((await wavOf('calm piano slow', 8, { seed: 5 })).output.data);
    const lively = onsetsPerSecond((await wavOf('fast energetic drums', 8, { seed: 5 })).output.data);
    expect(lively).toBeGreaterThan(calm * 2);
    const slowed = onsetsPerSecond(
      (await wavOf('fast energetic drums', 8, { seed: 5, tempo: 60 })).output.data,
    );
    expect(slowed).toBeLessThan(lively * 0.7);
  });

  it('refuses out-of-range inputs', async () => {
    for (const body of [
      { prompt: 'x', duration: 0 },
      { prompt: 'x', duration: 601 },
      { prompt: 'x', duration: 2.5 },
      { prompt: ' ', duration: 2 },
      { prompt: 'x', duration: 2, provider_options: { local: { tempo: 300 } } },
      { prompt: 'x', duration: 2, provider_options: { local: { format: 'ogg' } } },
    ]) {
      expect(await failure(music(body))).toBeInstanceOf(EngineInputError);
    }
  });

  it('stops between blocks when cancelled, and stops the encoder too', async () => {
    const controller = new AbortController();
    const { context } = contextOf(controller.signal);
    let calls = 0;
    const rendering = await failure(
      job(inputFor('procedural-music', { prompt: 'fast energetic drums', duration: 600 }), {
        ...context,
        progress: () => {
          if (++calls === 3) controller.abort();
        },
      }),
    );
    expect(rendering).toBeInstanceOf(AbortError);
    expect(calls).toBe(3);

    const encoder = new AbortController();
    const encoding = await failure(
      job(inputFor('procedural-music', { prompt: 'calm', duration: 60 }), {
        ...contextOf(encoder.signal).context,
        progress: (_fraction, message) => {
          if (message === 'Encoding MP3') encoder.abort();
        },
      }),
    );
    expect(encoding).toBeInstanceOf(AbortError);
  });
});
