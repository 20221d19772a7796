import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AbortError, EngineInputError } from './engine-run.ts';
import {
  contextOf,
  failure,
  filesOf,
  frameColour,
  frameHashes,
  inputFor,
  probeOutput,
  processesUsing,
  solidImage,
} from './engine-test-support.ts';
import { makeTestMedia, type TestMedia, testFfmpeg } from './ffmpeg-test-media.ts';
import { cameraMove, createMotionI2vJob, createMotionJob, motionSize } from './video-motion.ts';

let dir: string;
let tmpRoot: string;
let media: TestMedia;
const motion = () => createMotionJob({ binary: testFfmpeg, tmpRoot });
const i2v = () => createMotionI2vJob({ binary: testFfmpeg, tmpRoot });

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'video-motion-test-'));
  tmpRoot = path.join(dir, 'jobs');
  await mkdir(tmpRoot);
  media = await makeTestMedia(dir);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function runMotion(body: Record<string, unknown>, signal?: AbortSignal) {
  const { context, progress } = contextOf(signal);
  const result = await motion()(inputFor('motion', { model: 'local-motion', ...body }), context);
  return finish(result, progress);
}

async function runI2v(body: Record<string, unknown>) {
  const { context, progress } = contextOf();
  const result = await i2v()(inputFor('motion-i2v', { model: 'local-motion-i2v', ...body }), context);
  return finish(result, progress);
}

async function finish(
  result: Awaited<ReturnType<ReturnType<typeof motion>>>,
  progress: Array<[number, string]>,
) {
  const output = result.outputs[0];
  if (output?.kind !== 'file') throw new Error('expected a file output');
  expect(await readdir(tmpRoot)).toEqual([]);
  return { result, output, progress, probed: await probeOutput(dir, output.name, output.data) };
}

describe('motion sizes and moves', () => {
  it('gives about 854x480 worth of pixels, even sides, long edge at most 1280', () => {
    expect(motionSize(16 / 9)).toEqual({ width: 854, height: 480 });
    expect(motionSize(1)).toEqual({ width: 640, height: 640 });
    expect(motionSize(9 / 16)).toEqual({ width: 480, height: 854 });
    expect(motionSize(16)).toEqual({ width: 1280, height: 80 });
  });

  it('eases each move over every frame', () => {
    expect(cameraMove('zoom-in', 48, { width: 854, height: 480 }, 24)).toBe(
      "zoompan=z='1+0.250*(1-cos(PI*on/47))/2':x='iw/2-iw/zoom/2':y='ih/2-ih/zoom/2':d=48:s=854x480:fps=24",
    );
    expect(cameraMove('pan-left', 1, { width: 2, height: 2 }, 10)).toContain(
      "x='(iw-iw/zoom)*(1-(1-cos(PI*0))/2)'",
    );
  });
});

describe('local-motion', () => {
  it('makes an H.264 MP4 of exactly the asked length at the asked frame rate, billed by the second', async () => {
    const { output, probed, result, progress } = await runMotion({
      prompt: 'a red kite over the sea',
      duration: 1.5,
      aspect_ratio: '1:1',
      provider_options: { local: { fps: 12, seed: 7 } },
    });
    expect(output).toMatchObject({ mediaType: 'video/mp4', name: 'motion.mp4' });
    expect(probed.video).toMatchObject({ codec_name: 'h264', pix_fmt: 'yuv420p', width: 640, height: 640 });
    expect(probed.video?.r_frame_rate).toBe('12/1');
    expect(probed.video?.nb_frames).toBe('18');
    expect(probed.audio).toBeUndefined();
    expect(Math.abs(probed.seconds - 1.5)).toBeLessThan(1 / 12);
    expect(result).toMatchObject({ billedUnits: { seconds: 1.5 }, providerStatus: 'succeeded' });
    const fractions = progress.map(([fraction]) => fraction);
    expect(fractions).toEqual([...fractions].sort((a, b) => a - b));
    expect(progress.some(([, message]) => message.startsWith('Rendering zoom-in'))).toBe(true);
    // Only the end says "Done": a part of the work that ends (the still) is not the job's end.
    expect(progress.filter(([, message]) => message === 'Done')).toEqual([[1, 'Done']]);
  });

  it('defaults to 5 s of 16:9 at 24 fps', async () => {
    const { probed, result } = await runMotion({ prompt: 'city lights' });
    expect(probed.video).toMatchObject({ width: 854, height: 480, nb_frames: '120', r_frame_rate: '24/1' });
    expect(Math.abs(probed.seconds - 5)).toBeLessThan(1 / 24);
    expect(result.billedUnits).toEqual({ seconds: 5 });
  });

  it('is deterministic for a seed, and differs across seeds and moves', async () => {
    const body = (seed: number, move: string) => ({
      prompt: 'a lighthouse at dusk',
      duration: 1,
      aspect_ratio: '1:1',
      provider_options: { local: { seed, motion: move, fps: 10 } },
    });
    const hashes = async (seed: number, move: string) =>
      frameHashes((await runMotion(body(seed, move))).probed.file);
    const first = await hashes(1, 'zoom-in');
    expect(first).toHaveLength(10);
    expect(new Set(first).size).toBeGreaterThan(5);
    expect(await hashes(1, 'zoom-in')).toEqual(first);
    expect(await hashes(2, 'zoom-in')).not.toEqual(first);
    const moves: string[][] = [];
    for (const move of ['zoom-out', 'pan-left', 'pan-right']) moves.push(await hashes(1, move));
    const all = [first, ...moves].map((list) => list.join());
    expect(new Set(all).size).toBe(4);
  });

  it.each([
    [{ duration: 61 }, 'at most 60 s'],
    [{ duration: 0 }, 'greater than 0'],
    [{ aspect_ratio: '40:1' }, 'more extreme'],
    [{ provider_options: { local: { motion: 'spin' } } }, 'provider_options.local'],
    [{ provider_options: { local: { fps: 5 } } }, 'provider_options.local'],
  ])('refuses %j', async (body, words) => {
    const error = await failure(runMotion({ prompt: 'x', ...body }));
    expect(error).toBeInstanceOf(EngineInputError);
    expect(error.message).toContain(words);
    expect(await readdir(tmpRoot)).toEqual([]);
  });

  it('stops quickly when aborted mid-run, leaving no temp dir and no ffmpeg', async () => {
    const controller = new AbortController();
    const { context, progress } = contextOf(controller.signal);
    const body = {
      model: 'local-motion',
      prompt: 'long',
      duration: 60,
      provider_options: { local: { fps: 30 } },
    };
    const running = motion()(inputFor('motion', body), context);
    const poll = setInterval(() => {
      if (progress.some(([, message]) => message.startsWith('Rendering')))
        controller.abort(new Error('stop'));
    }, 10);
    const error = await failure(running).finally(() => clearInterval(poll));
    expect(error).toBeInstanceOf(AbortError);
    // It stopped where it was, not after a full render: the run never reported its end.
    expect(progress.map(([, message]) => message)).not.toContain('Done');
    expect(await readdir(tmpRoot)).toEqual([]);
    expect(processesUsing(tmpRoot)).toEqual([]);
  });
});

describe('local-motion-i2v', () => {
  it('moves over the start frame: a red picture gives red frames in the picture’s own shape', async () => {
    const red = await solidImage(path.join(dir, 'red.png'), 300, 200, { r: 220, g: 20, b: 20 });
    const { probed, result } = await runI2v({
      files: filesOf(red),
      duration: 1,
      provider_options: { local: { fps: 10 } },
    });
    expect(probed.video).toMatchObject({ codec_name: 'h264', width: 784, height: 522, nb_frames: '10' });
    expect(result.billedUnits).toEqual({ seconds: 1 });
    const colour = await frameColour(probed.file, 0.5);
    expect(colour.r).toBeGreaterThan(180);
    expect(colour.g).toBeLessThan(60);
    expect(colour.b).toBeLessThan(60);
  });

  it('follows aspect_ratio when given (the picture is cropped to fill it)', async () => {
    const blue = await solidImage(path.join(dir, 'blue.jpg'), 120, 80, { r: 20, g: 20, b: 220 }, 'jpeg');
    const { probed } = await runI2v({
      files: filesOf(blue),
      duration: 0.5,
      aspect_ratio: '9:16',
      provider_options: { local: { motion: 'pan-left', fps: 10 } },
    });
    expect(probed.video).toMatchObject({ width: 480, height: 854, nb_frames: '5' });
    expect((await frameColour(probed.file, 0)).b).toBeGreaterThan(180);
  });

  it.each([
    ['a video', () => media.clip],
    ['text', () => media.garbage],
  ])('refuses %s as the start frame', async (_, file) => {
    const error = await failure(runI2v({ files: filesOf(file()), duration: 1 }));
    expect(error).toBeInstanceOf(EngineInputError);
    expect(error.message).toContain('files[0] is not an image');
    expect(await readdir(tmpRoot)).toEqual([]);
  });

  it('refuses a request without a start frame', async () => {
    const error = await failure(runI2v({ prompt: 'x' }));
    expect(error).toBeInstanceOf(EngineInputError);
  });
});
