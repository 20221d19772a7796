import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FfmpegOperation } from '../../../contract/generation.ts';
import { MODELS } from '../../domain/catalog/models.ts';
import { AbortError, EngineInputError } from './engine-run.ts';
import { contextOf, failure, urlOf } from './engine-test-support.ts';
import { runFfmpeg } from './ffmpeg-binary.ts';
import { createFfmpegJob } from './ffmpeg-engine.ts';
import { makeLongClip, makeTestMedia, probeBytes, type TestMedia, testFfmpeg } from './ffmpeg-test-media.ts';

const model = MODELS.find((m) => m.id === 'ffmpeg')!;
const offer = model.offers[0]!;

let dir: string;
let tmpRoot: string;
let media: TestMedia;
const job = () => createFfmpegJob({ binary: testFfmpeg, tmpRoot });

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'ffmpeg-engine-test-'));
  tmpRoot = path.join(dir, 'jobs');
  await mkdir(tmpRoot);
  media = await makeTestMedia(dir);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function run(files: string[], operations: Array<Record<string, unknown>>, signal?: AbortSignal) {
  const { context, progress } = contextOf(signal);
  const body = { model: 'ffmpeg', files: files.map((file) => ({ url: urlOf(file) })), operations };
  const result = await job()({ model, offer, body }, context);
  const output = result.outputs[0];
  if (output?.kind !== 'file') throw new Error('expected a file output');
  return { result, output, progress, info: await probeBytes(dir, output.name, output.data) };
}

/** Temp dirs of finished jobs are removed, whatever happened. */
async function expectNoTempDirs() {
  expect(await readdir(tmpRoot)).toEqual([]);
}

describe('ffmpeg engine: resize', () => {
  it.each([
    ['cover', 160, 160, 160, 160],
    ['contain', 160, 160, 160, 120],
    ['stretch', 100, 50, 100, 50],
  ] as const)('%s into %ix%i gives %ix%i, keeping length and sound', async (fit, width, height, w, h) => {
    const { output, info, result } = await run([media.clip], [{ op: 'resize', width, height, fit }]);
    expect(output).toMatchObject({ mediaType: 'video/mp4', name: 'resized.mp4' });
    expect(info.video).toMatchObject({ codec: 'h264', width: w, height: h });
    expect(info.audio?.codec).toBe('aac');
    expect(info.durationSeconds).toBeCloseTo(2, 0);
    expect(result).toMatchObject({ billedUnits: { jobs: 1 }, providerStatus: 'succeeded' });
    await expectNoTempDirs();
  });

  it('keeps the aspect ratio with one side only (even for H.264)', async () => {
    expect((await run([media.clip], [{ op: 'resize', width: 100 }])).info.video).toMatchObject({
      width: 100,
      height: 76,
    });
    expect((await run([media.clip], [{ op: 'resize', height: 60 }])).info.video).toMatchObject({
      width: 80,
      height: 60,
    });
  });

  it('plans on the upright picture of a rotated video', async () => {
    const rotated = path.join(dir, 'rotated.mp4');
    await runFfmpeg(testFfmpeg(), ['-i', media.clip, '-metadata:s:v', 'rotate=90', '-c', 'copy', rotated]);
    const { info } = await run([rotated], [{ op: 'resize', width: 120 }]);
    expect(info.video).toMatchObject({ width: 120, height: 160 });
  });

  it('rounds an odd size down to even for H.264', async () => {
    const { info } = await run([media.clip], [{ op: 'resize', width: 101, height: 51, fit: 'stretch' }]);
    expect(info.video).toMatchObject({ width: 100, height: 50 });
  });

  it('reports progress that only grows', async () => {
    const { progress } = await run([media.clip], [{ op: 'resize', width: 64 }]);
    const fractions = progress.map(([fraction]) => fraction);
    expect(fractions.length).toBeGreaterThan(2);
    expect(fractions).toEqual([...fractions].sort((a, b) => a - b));
    expect(fractions.at(-1)).toBeLessThanOrEqual(1);
    expect(progress.some(([, message]) => message.startsWith('resize'))).toBe(true);
  });
});

describe('ffmpeg engine: other operations', () => {
  it('trims with start and duration, or start and end', async () => {
    const a = await run([media.clip], [{ op: 'trim', start: 0.5, duration: 1 }]);
    expect(a.output).toMatchObject({ mediaType: 'video/mp4', name: 'trimmed.mp4' });
    expect(a.info.durationSeconds).toBeGreaterThan(0.9);
    expect(a.info.durationSeconds).toBeLessThan(1.2);
    const b = await run([media.wav], [{ op: 'trim', start: 1.5, end: 10 }]);
    expect(b.output.mediaType).toBe('audio/wav');
    expect(b.info.durationSeconds).toBeCloseTo(0.5, 1);
  });

  it('transcodes to WebM (VP9 and Opus)', async () => {
    const { output, info } = await run([media.clip], [{ op: 'transcode', format: 'webm' }]);
    expect(output).toMatchObject({ mediaType: 'video/webm', name: 'transcoded.webm' });
    expect(info.video).toMatchObject({ codec: 'vp9', width: 320, height: 240 });
    expect(info.audio?.codec).toBe('opus');
  });

  it.each([
    ['mp3', 'audio/mpeg', 'mp3'],
    ['wav', 'audio/wav', 'pcm_s16le'],
  ] as const)('extracts the sound as %s', async (format, mediaType, codec) => {
    const { output, info } = await run([media.clip], [{ op: 'extract_audio', format }]);
    expect(output).toMatchObject({ mediaType, name: `audio.${format}` });
    expect(info.video).toBeNull();
    expect(info.audio?.codec).toBe(codec);
    expect(info.durationSeconds).toBeCloseTo(2, 0);
  });

  it('grabs one frame as a JPEG thumbnail (the contract says JPEG)', async () => {
    const { output } = await run([media.clip], [{ op: 'thumbnail', at: 1 }]);
    expect(output).toMatchObject({ mediaType: 'image/jpeg', name: 'thumbnail.jpg' });
    const metadata = await sharp(output.data).metadata();
    expect([metadata.format, metadata.width, metadata.height]).toEqual(['jpeg', 320, 240]);
  });

  it('gives the last frame for a thumbnail after the last frame but before the end', async () => {
    const { output } = await run([media.clip], [{ op: 'thumbnail', at: 1.98 }]);
    expect((await sharp(output.data).metadata()).format).toBe('jpeg');
  });

  it('makes a GIF at the asked frame rate and width', async () => {
    const { output } = await run([media.clip], [{ op: 'gif', fps: 5, width: 160 }]);
    expect(output).toMatchObject({ mediaType: 'image/gif', name: 'animation.gif' });
    const metadata = await sharp(output.data, { animated: true }).metadata();
    expect(metadata).toMatchObject({ format: 'gif', width: 160, pageHeight: 120 });
    expect(metadata.pages).toBeGreaterThanOrEqual(9);
    expect(metadata.pages).toBeLessThanOrEqual(11);
  });

  it('joins two clips: lengths add up, the first one sets the size, silence fills a silent clip', async () => {
    const { output, info } = await run([media.clip, media.silent], [{ op: 'concat' }]);
    expect(output).toMatchObject({ mediaType: 'video/mp4', name: 'joined.mp4' });
    expect(info.video).toMatchObject({ width: 320, height: 240 });
    expect(info.audio).not.toBeNull();
    expect(info.durationSeconds).toBeGreaterThan(2.8);
    expect(info.durationSeconds).toBeLessThan(3.3);
  });

  it('chains operations: each works on the previous result', async () => {
    const operations: FfmpegOperation[] = [
      { op: 'trim', start: 0, duration: 1 },
      { op: 'resize', width: 64, height: 64, fit: 'cover' },
      { op: 'transcode', format: 'webm' },
    ];
    const { output, info } = await run([media.clip], operations);
    expect(output.mediaType).toBe('video/webm');
    expect(info.video).toMatchObject({ codec: 'vp9', width: 64, height: 64 });
    expect(info.durationSeconds).toBeLessThan(1.2);
  });

  it('resizes a still image into the same format', async () => {
    const frame = await run([media.clip], [{ op: 'thumbnail', at: 0 }]);
    const still = path.join(dir, 'still.jpg');
    await writeFile(still, frame.output.data);
    const { output } = await run([still], [{ op: 'resize', width: 100 }]);
    expect(output.mediaType).toBe('image/jpeg');
    const metadata = await sharp(output.data).metadata();
    expect([metadata.width, metadata.height]).toEqual([100, 75]);
  });

  it('reads an AVIF picture (which its ffmpeg cannot decode) through a PNG', async () => {
    const still = path.join(dir, 'still.avif');
    await sharp({ create: { width: 64, height: 48, channels: 3, background: '#c04020' } })
      .avif()
      .toFile(still);
    const { output } = await run([still], [{ op: 'resize', width: 32 }]);
    expect(output.mediaType).toBe('image/png');
    const { width, height } = await sharp(output.data).metadata();
    expect([width, height]).toEqual([32, 24]);
  });
});

describe('ffmpeg engine: bad input and stopping', () => {
  it('fails with EngineInputError and ffmpeg’s words for media it cannot read', async () => {
    const error = await failure(run([media.garbage], [{ op: 'resize', width: 10 }]));
    expect(error).toBeInstanceOf(EngineInputError);
    expect(error.message).toContain('files[0]');
    expect(error.message).toContain('Invalid data found when processing input');
    expect(error.message).not.toContain(tmpRoot);
    await expectNoTempDirs();
  });

  it.each([
    [[{ op: 'resize', width: 10 }], 'wav', 'resize needs a picture'],
    [[{ op: 'thumbnail', at: 5 }], 'clip', 'past the end'],
    [[{ op: 'trim', start: 3, duration: 1 }], 'clip', 'trim starts at 3 s'],
    [
      [{ op: 'transcode', format: 'mp4', audio_codec: 'pcm_s16le' }],
      'clip',
      'not currently supported in container',
    ],
    [[{ op: 'transcode', format: 'webm', video_codec: 'h264' }], 'clip', 'Only VP8 or VP9'],
    [[{ op: 'extract_audio', format: 'mp3' }], 'silent', 'extract_audio needs sound'],
    [[{ op: 'transcode', format: 'mp3', video_codec: 'h264' }], 'clip', 'leave video_codec out'],
  ] as const)('refuses %j on %s: %s', async (operations, which, words) => {
    const error = await failure(run([media[which]], [...operations]));
    expect(error).toBeInstanceOf(EngineInputError);
    expect(error.message).toContain('operations[0]');
    expect(error.message).toContain(words);
    await expectNoTempDirs();
  });

  it('refuses a body that is not a valid ffmpeg request', async () => {
    const { context } = contextOf();
    const error = await failure(job()({ model, offer, body: { files: [], operations: [] } }, context));
    expect(error).toBeInstanceOf(EngineInputError);
  });

  it('kills ffmpeg when the signal aborts, throws AbortError and leaves no temp dir', async () => {
    const long = await makeLongClip(dir, 60);
    const controller = new AbortController();
    const { context, progress } = contextOf(controller.signal);
    const body = {
      files: [{ url: urlOf(long) }],
      operations: [{ op: 'resize', width: 2048, height: 2048, fit: 'stretch' }],
    };
    const running = job()({ model, offer, body }, context);
    // Stop once ffmpeg is encoding (progress past the reading share).
    const poll = setInterval(() => {
      if (progress.some(([fraction]) => fraction > 0.1)) controller.abort(new Error('stop'));
    }, 20);
    const error = await failure(running).finally(() => clearInterval(poll));
    expect(error).toBeInstanceOf(AbortError);
    // It stopped where it was, not after a full encode: the run never reported its end.
    expect(progress.map(([, message]) => message)).not.toContain('Done');
    await expectNoTempDirs();
    expect(ffmpegProcessesUsing(tmpRoot)).toEqual([]);
  });

  it('does not start when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const { context } = contextOf(controller.signal);
    const body = { files: [{ url: urlOf(media.clip) }], operations: [{ op: 'gif' }] };
    expect(await failure(job()({ model, offer, body }, context))).toBeInstanceOf(AbortError);
    await expectNoTempDirs();
  });
});

/** Pids of live processes whose command line mentions `text` (Linux /proc). */
function ffmpegProcessesUsing(text: string): string[] {
  if (!existsSync('/proc')) return [];
  return readdirSync('/proc')
    .filter((pid) => /^\d+$/.test(pid))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(text);
      } catch {
        return false;
      }
    });
}
