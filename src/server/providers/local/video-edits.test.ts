import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunResult } from '../../domain/jobs/provider.ts';
import { AbortError, EngineInputError } from './engine-run.ts';
import {
  contextOf,
  failure,
  filesOf,
  inputFor,
  meanVolume,
  probeOutput,
  processesUsing,
  solidImage,
} from './engine-test-support.ts';
import { runFfmpeg } from './ffmpeg-binary.ts';
import { makeLongClip, makeTestMedia, type TestMedia, testFfmpeg } from './ffmpeg-test-media.ts';
import type { LocalEngine } from './local-provider.ts';
import { createAudioReplaceJob } from './video-audio-replace.ts';
import { createVideoConcatJob } from './video-concat.ts';
import { createVideoTrimJob, createVideoUpscaleJob, upscaleSize } from './video-edits.ts';
import type { VideoJobOptions } from './video-job.ts';

let dir: string;
let tmpRoot: string;
let media: TestMedia;
let still: string;
/** 0.4 s of 660 Hz in an MP3. */
let shortTone: string;

const ENGINES: Record<string, (options: VideoJobOptions) => LocalEngine> = {
  'video-upscale': createVideoUpscaleJob,
  'video-trim': createVideoTrimJob,
  'video-concat': createVideoConcatJob,
  'audio-replace': createAudioReplaceJob,
};

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'video-edits-test-'));
  tmpRoot = path.join(dir, 'jobs');
  await mkdir(tmpRoot);
  media = await makeTestMedia(dir);
  still = await solidImage(path.join(dir, 'still.png'), 64, 64, { r: 0, g: 128, b: 0 });
  shortTone = path.join(dir, 'short.mp3');
  await runFfmpeg(testFfmpeg(), ['-f', 'lavfi', '-i', 'sine=frequency=660:duration=0.4', shortTone]);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function run(
  engine: string,
  files: string[],
  local: Record<string, unknown> = {},
  signal?: AbortSignal,
) {
  const { context, progress } = contextOf(signal);
  const body = { files: filesOf(...files), provider_options: { local } };
  const result: RunResult = await ENGINES[engine]!({ binary: testFfmpeg, tmpRoot })(
    inputFor(engine, body),
    context,
  );
  const output = result.outputs[0];
  if (output?.kind !== 'file') throw new Error('expected a file output');
  expect(output.mediaType).toBe('video/mp4');
  expect(await readdir(tmpRoot)).toEqual([]);
  const probed = await probeOutput(dir, output.name, output.data);
  // Billed by what was delivered.
  expect(result.billedUnits.seconds).toBeCloseTo(probed.seconds, 1);
  return { result, output, progress, probed };
}

async function refused(engine: string, files: string[], local: Record<string, unknown>, words: string) {
  const error = await failure(run(engine, files, local));
  expect(error).toBeInstanceOf(EngineInputError);
  expect(error.message).toContain(words);
  expect(error.message).not.toContain(tmpRoot);
  expect(await readdir(tmpRoot)).toEqual([]);
}

describe('local-video-upscale', () => {
  it.each([
    [{}, 640, 480, 'upscaled-2x.mp4'],
    [{ factor: 4 }, 1280, 960, 'upscaled-4x.mp4'],
  ])('scales %j with lanczos, keeping length and sound', async (local, width, height, name) => {
    const { output, probed } = await run('video-upscale', [media.clip], local);
    expect(output.name).toBe(name);
    expect(probed.video).toMatchObject({ codec_name: 'h264', width, height, nb_frames: '20' });
    expect(probed.audio?.codec_name).toBe('aac');
    expect(Math.abs(probed.seconds - 2)).toBeLessThan(0.1);
  });

  it('caps the long edge at 3840 and refuses what cannot grow', () => {
    expect(upscaleSize({ width: 1280, height: 720 }, 4)).toEqual({ width: 3840, height: 2160 });
    expect(upscaleSize({ width: 1001, height: 3000 }, 2)).toEqual({ width: 1280, height: 3840 });
    expect(() => upscaleSize({ width: 3840, height: 2160 }, 2)).toThrow(EngineInputError);
  });

  it.each([
    [() => still, 'still image'],
    [() => media.wav, 'has no picture'],
    [() => media.garbage, 'not media ffmpeg can read'],
  ])('refuses %#: %s', async (file, words) => {
    await refused('video-upscale', [file()], {}, words);
  });

  it('refuses factors other than 2 and 4', async () => {
    await refused('video-upscale', [media.clip], { factor: 3 }, 'provider_options.local');
  });

  it('stops quickly when aborted mid-run, leaving no temp dir and no ffmpeg', async () => {
    const long = await makeLongClip(dir, 30);
    const controller = new AbortController();
    const { context, progress } = contextOf(controller.signal);
    const body = { files: filesOf(long), provider_options: { local: { factor: 4 } } };
    const running = createVideoUpscaleJob({ binary: testFfmpeg, tmpRoot })(
      inputFor('video-upscale', body),
      context,
    );
    const poll = setInterval(() => {
      if (progress.some(([, message]) => message.startsWith('Upscaling')))
        controller.abort(new Error('stop'));
    }, 10);
    const error = await failure(running).finally(() => clearInterval(poll));
    expect(error).toBeInstanceOf(AbortError);
    // It stopped where it was, not after a full encode: the run never reported its end.
    expect(progress.map(([, message]) => message)).not.toContain('Done');
    expect(await readdir(tmpRoot)).toEqual([]);
    expect(processesUsing(tmpRoot)).toEqual([]);
  });
});

describe('local-video-trim', () => {
  it('cuts start to end frame-exactly, keeping sound', async () => {
    const { probed, output, progress } = await run('video-trim', [media.clip], { start: 0.5, end: 1.5 });
    expect(output.name).toBe('trimmed.mp4');
    expect(probed.video).toMatchObject({ codec_name: 'h264', width: 320, height: 240, nb_frames: '10' });
    expect(probed.audio?.codec_name).toBe('aac');
    expect(Math.abs(probed.seconds - 1)).toBeLessThan(0.1);
    expect(progress.some(([, message]) => message === 'Cutting 0.500 s to 1.500 s')).toBe(true);
  });

  it('runs to the end without end, or when end is past it', async () => {
    for (const local of [{ start: 1.2 }, { start: 1.2, end: 30 }]) {
      const { probed } = await run('video-trim', [media.clip], local);
      expect(probed.video?.nb_frames).toBe('8');
      expect(Math.abs(probed.seconds - 0.8)).toBeLessThan(0.1);
    }
  });

  it.each([
    [{ start: 2.5 }, 'not before the end of files[0], which lasts 2.0'],
    [{ start: 1, end: 0.5 }, 'end must be after start'],
    [{ end: 1 }, 'provider_options.local'],
  ])('refuses %j', async (local, words) => {
    await refused('video-trim', [media.clip], local, words);
  });
});

describe('local-video-concat', () => {
  it('joins in order at the first one’s size and rate, adding silence for a silent clip', async () => {
    const { probed, output } = await run('video-concat', [media.clip, media.silent, media.clip]);
    expect(output.name).toBe('joined.mp4');
    expect(probed.video).toMatchObject({ codec_name: 'h264', width: 320, height: 240, r_frame_rate: '10/1' });
    expect(probed.video?.nb_frames).toBe('50');
    expect(probed.audio?.codec_name).toBe('aac');
    expect(Math.abs(probed.seconds - 5)).toBeLessThan(0.1);
    expect(await meanVolume(probed.file, 2.2, 2.8)).toBe(-91);
    expect(await meanVolume(probed.file, 0.2, 1.8)).toBeGreaterThan(-30);
    expect(await meanVolume(probed.file, 3.2, 4.8)).toBeGreaterThan(-30);
  });

  it('has no sound when no input has any', async () => {
    const { probed } = await run('video-concat', [media.silent, media.silent]);
    expect(probed.video).toMatchObject({ width: 160, height: 120 });
    expect(probed.audio).toBeUndefined();
    expect(Math.abs(probed.seconds - 2)).toBeLessThan(0.1);
  });

  it.each([
    [() => [media.clip], 'needs 2 to 10 files (got 1)'],
    [() => Array.from({ length: 11 }, () => media.clip), 'got 11'],
    [() => [media.clip, media.wav], 'files[1] has no picture'],
    [() => [media.clip, still], 'files[1] is a still image'],
  ])('refuses %#: %s', async (files, words) => {
    await refused('video-concat', files(), {}, words);
  });
});

describe('local-audio-replace', () => {
  it('keeps the video’s length by default, replacing its sound', async () => {
    const { probed, output } = await run('audio-replace', [media.silent, media.wav]);
    expect(output.name).toBe('with-audio.mp4');
    expect(probed.video).toMatchObject({ codec_name: 'h264', width: 160, height: 120, nb_frames: '10' });
    expect(probed.audio?.codec_name).toBe('aac');
    expect(Math.abs(probed.seconds - 1)).toBeLessThan(0.1);
  });

  it('loops a short sound to the video’s length', async () => {
    const { probed } = await run('audio-replace', [media.clip, shortTone], { length: 'video' });
    expect(Math.abs(probed.seconds - 2)).toBeLessThan(0.1);
    expect(await meanVolume(probed.file, 1.5, 1.9)).toBeGreaterThan(-30);
  });

  it('loops the video to the sound’s length with length audio', async () => {
    const { probed } = await run('audio-replace', [media.silent, media.wav], { length: 'audio' });
    expect(Math.abs(probed.seconds - 2)).toBeLessThan(0.1);
    expect(probed.video?.nb_frames).toBe('20');
  });

  it('stops with the shorter one with length shortest', async () => {
    const { probed } = await run('audio-replace', [media.clip, shortTone], { length: 'shortest' });
    expect(Math.abs(probed.seconds - 0.4)).toBeLessThan(0.1);
  });

  it.each([
    [() => [media.clip, media.silent], 'files[1] has no sound'],
    [() => [media.wav, media.wav], 'files[0] has no picture'],
    [() => [media.clip], 'needs 2 files (got 1)'],
    [() => [media.clip, media.garbage], 'files[1] is not media'],
  ])('refuses %#: %s', async (files, words) => {
    await refused('audio-replace', files(), {}, words);
  });
});
