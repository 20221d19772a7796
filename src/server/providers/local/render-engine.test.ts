import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AbortError, EngineInputError } from './engine-run.ts';
import {
  contextOf,
  failure,
  frameAt,
  inputFor,
  meanVolume,
  probeOutput,
  processesUsing,
  solidImage,
  urlOf,
} from './engine-test-support.ts';
import { makeTestMedia, type TestMedia, testFfmpeg } from './ffmpeg-test-media.ts';
import { createRenderJob } from './render-engine.ts';
import { textSvg, wrapText } from './render-text.ts';

let dir: string;
let tmpRoot: string;
let media: TestMedia;
let red: string;
const render = () => createRenderJob({ binary: testFfmpeg, tmpRoot });

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'render-engine-test-'));
  tmpRoot = path.join(dir, 'jobs');
  await mkdir(tmpRoot);
  media = await makeTestMedia(dir);
  red = await solidImage(path.join(dir, 'red.png'), 50, 30, { r: 255, g: 0, b: 0 });
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const SMALL = { width: 160, height: 90, fps: 10, duration: 2 };

async function run(body: Record<string, unknown>, signal?: AbortSignal) {
  const { context, progress } = contextOf(signal);
  const result = await render()(inputFor('render', { model: 'local-render', ...body }), context);
  const output = result.outputs[0];
  if (output?.kind !== 'file') throw new Error('expected a file output');
  expect(await readdir(tmpRoot)).toEqual([]);
  return { result, output, progress, probed: await probeOutput(dir, output.name, output.data) };
}

/** Mean RGB of a region of a picture. */
async function regionColour(png: Buffer, left: number, top: number, width: number, height: number) {
  // stats() reads the input, not the pipeline: the region is cut out first.
  const region = await sharp(png).extract({ left, top, width, height }).png().toBuffer();
  const { channels } = await sharp(region).stats();
  return { r: channels[0]!.mean, g: channels[1]!.mean, b: channels[2]!.mean };
}

/** Pixels of a region that are mostly green (drawn text). */
async function greenPixels(png: Buffer): Promise<number> {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let count = 0;
  for (let i = 0; i < data.length; i += info.channels) {
    if (data[i + 1]! > 150 && data[i]! < 100 && data[i + 2]! < 100) count += 1;
  }
  return count;
}

const imageLayer = { type: 'image', url: urlOf(''), x: 10, y: 20, width: 50, height: 30, fit: 'stretch' };
const textLayer = { type: 'text', text: 'Hello', start: 1, font_size: 24, color: '#00ff00', y: 50 };

describe('local-render: video', () => {
  it('composes an image, a text and an audio layer on the timeline into H.264/AAC', async () => {
    const { output, probed, result } = await run({
      ...SMALL,
      background: '#000080',
      layers: [
        { ...imageLayer, url: urlOf(red) },
        textLayer,
        { type: 'audio', url: urlOf(media.wav), start: 0.5 },
      ],
    });
    expect(output).toMatchObject({ mediaType: 'video/mp4', name: 'render.mp4' });
    expect(probed.video).toMatchObject({ codec_name: 'h264', width: 160, height: 90, nb_frames: '20' });
    expect(probed.video?.r_frame_rate).toBe('10/1');
    expect(probed.audio?.codec_name).toBe('aac');
    expect(Math.abs(probed.seconds - 2)).toBeLessThan(0.1);
    expect(result.billedUnits.seconds).toBeCloseTo(probed.seconds, 2);

    const early = await frameAt(probed.file, 0.2);
    expect((await regionColour(early, 15, 25, 40, 20)).r).toBeGreaterThan(200);
    expect((await regionColour(early, 100, 5, 50, 10)).b).toBeGreaterThan(100);
    expect(await greenPixels(early)).toBe(0);
    expect(await greenPixels(await frameAt(probed.file, 1.5))).toBeGreaterThan(20);

    expect(await meanVolume(probed.file, 0, 0.4)).toBe(-91);
    expect(await meanVolume(probed.file, 0.7, 1.9)).toBeGreaterThan(-30);
  });

  it('shows a video layer in its window (trimmed, contained in its box) and mixes its sound', async () => {
    const { probed } = await run({
      ...SMALL,
      background: '#0000ff',
      layers: [
        {
          type: 'video',
          url: urlOf(media.clip),
          start: 0.5,
          duration: 1,
          trim_start: 0.5,
          fit: 'contain',
          volume: 0.5,
        },
      ],
    });
    expect(probed.audio?.codec_name).toBe('aac');
    const blue = async (at: number) => (await regionColour(await frameAt(probed.file, at), 70, 40, 20, 10)).b;
    expect(await blue(0.2)).toBeGreaterThan(200);
    expect(await blue(1.0)).toBeLessThan(200);
    expect(await blue(1.8)).toBeGreaterThan(200);
    // Contained 4:3 in 16:9: blue bars left and right.
    expect((await regionColour(await frameAt(probed.file, 1.0), 0, 0, 15, 90)).b).toBeGreaterThan(200);
    expect(await meanVolume(probed.file, 0, 0.4)).toBe(-91);
    expect(await meanVolume(probed.file, 0.7, 1.3)).toBeGreaterThan(-40);
    expect(await meanVolume(probed.file, 1.6, 2)).toBe(-91);
  });

  it('has no sound track when nothing is heard', async () => {
    const { probed } = await run({
      ...SMALL,
      layers: [{ type: 'video', url: urlOf(media.clip), volume: 0 }, textLayer],
    });
    expect(probed.audio).toBeUndefined();
    expect(probed.video).toMatchObject({ width: 160, height: 90 });
  });

  it('writes WebM (VP9/Opus) and GIF', async () => {
    const layers = [
      { ...imageLayer, url: urlOf(red) },
      { type: 'audio', url: urlOf(media.wav) },
    ];
    const webm = await run({ ...SMALL, format: 'webm', layers });
    expect(webm.output).toMatchObject({ mediaType: 'video/webm', name: 'render.webm' });
    expect(webm.probed.video).toMatchObject({ codec_name: 'vp9', width: 160, height: 90 });
    expect(webm.probed.audio?.codec_name).toBe('opus');
    expect(Math.abs(webm.probed.seconds - 2)).toBeLessThan(0.1);

    const gif = await run({ ...SMALL, format: 'gif', layers });
    expect(gif.output).toMatchObject({ mediaType: 'image/gif', name: 'render.gif' });
    const metadata = await sharp(gif.output.data, { animated: true }).metadata();
    expect(metadata).toMatchObject({ format: 'gif', width: 160, pageHeight: 90, pages: 20 });
    expect(gif.result.billedUnits.seconds).toBeCloseTo(2, 1);
  });
});

describe('local-render: stills', () => {
  it.each([
    ['png', 'image/png'],
    ['jpg', 'image/jpeg'],
  ] as const)('renders the frame at 0 s as %s, billed as 1 second', async (format, mediaType) => {
    const { output, result } = await run({
      ...SMALL,
      format,
      background: '#ffffff',
      layers: [
        { ...imageLayer, url: urlOf(red) },
        { ...textLayer, start: 0, text: 'Hello world', align: 'left', x: 5, y: 60 },
        { type: 'audio', url: urlOf(media.wav) },
      ],
    });
    expect(output).toMatchObject({ mediaType, name: `render.${format}` });
    expect(result.billedUnits).toEqual({ seconds: 1 });
    const metadata = await sharp(output.data).metadata();
    expect([metadata.format, metadata.width, metadata.height]).toEqual([
      format === 'jpg' ? 'jpeg' : 'png',
      160,
      90,
    ]);
    const box = await regionColour(output.data, 15, 25, 40, 20);
    expect(box.r).toBeGreaterThan(200);
    expect(box.g).toBeLessThan(40);
    expect((await regionColour(output.data, 100, 5, 50, 10)).g).toBeGreaterThan(200);
    expect(await greenPixels(output.data)).toBeGreaterThan(20);
  });
});

describe('local-render: text layout', () => {
  it('wraps long lines at words and splits long words', () => {
    expect(wrapText('one two three four', 9)).toEqual(['one two', 'three', 'four']);
    expect(wrapText('abcdefghij\nxy', 4)).toEqual(['abcd', 'efgh', 'ij', 'xy']);
  });

  it('anchors lines by align inside the canvas moved by x, y, escaping markup', () => {
    const svg = (align: 'left' | 'center' | 'right') =>
      textSvg({ text: 'a<b', x: 10, y: 20, font_size: 10, color: '#ffffff', align }, 200, 100);
    expect(svg('left')).toContain('text-anchor="start"><text x="10" y="28"');
    expect(svg('center')).toContain('text-anchor="middle"><text x="110"');
    expect(svg('right')).toContain('text-anchor="end"><text x="210"');
    expect(svg('left')).toContain('a&lt;b');
  });
});

describe('local-render: bad input and stopping', () => {
  it.each([
    [
      'an image layer with a video',
      () => [{ type: 'image', url: urlOf(media.clip) }],
      'layers[0] is not an image',
    ],
    [
      'an audio layer without sound',
      () => [{ type: 'audio', url: urlOf(media.silent) }],
      'layers[0] has no sound',
    ],
    [
      'a video layer with a sound',
      () => [{ type: 'video', url: urlOf(media.wav) }],
      'layers[0] (a video layer)',
    ],
    [
      'a video layer with text',
      () => [{ type: 'video', url: urlOf(media.garbage) }],
      'layers[0] is not media',
    ],
    [
      'a layer after the end',
      () => [textLayer, { type: 'image', url: urlOf(red), start: 2 }],
      'layers[1] starts at 2 s',
    ],
    [
      'a trim past the source',
      () => [{ type: 'audio', url: urlOf(media.wav), trim_start: 3 }],
      'layers[0].trim_start 3 s is past',
    ],
    ['no layers', () => [], 'layers'],
  ])('refuses %s', async (_, layers, words) => {
    const error = await failure(run({ ...SMALL, layers: layers() }));
    expect(error).toBeInstanceOf(EngineInputError);
    expect(error.message).toContain(words);
    expect(error.message).not.toContain(tmpRoot);
    expect(await readdir(tmpRoot)).toEqual([]);
  });

  it('refuses a format it does not write', async () => {
    const error = await failure(run({ ...SMALL, format: 'avi', layers: [textLayer] }));
    expect(error).toBeInstanceOf(EngineInputError);
    expect(error.message).toContain('format');
  });

  it('stops quickly when aborted mid-run, leaving no temp dir and no ffmpeg', async () => {
    const controller = new AbortController();
    const { context, progress } = contextOf(controller.signal);
    const body = { model: 'local-render', duration: 120, width: 1280, height: 720, layers: [textLayer] };
    const running = render()(inputFor('render', body), context);
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
