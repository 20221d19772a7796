import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contextOf, filesOf, frameAt, inputFor, probeOutput, solidImage } from './engine-test-support.ts';
import { testFfmpeg } from './ffmpeg-test-media.ts';
import { createMotionI2vJob, createMotionJob, motionFromPrompt } from './video-motion.ts';

/*
 * local-motion follows the scene: judged from the pixels of frames ffmpeg extracts from the real output.
 */

let dir: string;
let tmpRoot: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'video-motion-scene-test-'));
  tmpRoot = path.join(dir, 'jobs');
  await mkdir(tmpRoot);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function render(model: 'motion' | 'motion-i2v', body: Record<string, unknown>): Promise<string> {
  const engine = (model === 'motion' ? createMotionJob : createMotionI2vJob)({ binary: testFfmpeg, tmpRoot });
  const { context } = contextOf();
  const result = await engine(inputFor(model, { model: `local-${model}`, ...body }), context);
  const output = result.outputs[0];
  if (output?.kind !== 'file') throw new Error('expected a file output');
  return (await probeOutput(dir, `${model}-${Math.random()}.mp4`, output.data)).file;
}

interface Pixels {
  data: Buffer;
  width: number;
  height: number;
}

async function pixelsAt(file: string, seconds: number): Promise<Pixels> {
  const { data, info } = await sharp(await frameAt(file, seconds))
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** Mean absolute difference per channel (0..255) over the rows from `top` to `bottom` (shares of height). */
function difference(a: Pixels, b: Pixels, top = 0, bottom = 1): number {
  const from = Math.floor(a.height * top) * a.width * 3;
  const to = Math.floor(a.height * bottom) * a.width * 3;
  let sum = 0;
  for (let i = from; i < to; i++) sum += Math.abs(a.data[i]! - b.data[i]!);
  return sum / (to - from);
}

/** Centre and count of the pixels `match` picks. */
function region(p: Pixels, match: (r: number, g: number, b: number) => boolean) {
  let count = 0;
  let sumX = 0;
  for (let i = 0; i < p.width * p.height; i++) {
    if (match(p.data[i * 3]!, p.data[i * 3 + 1]!, p.data[i * 3 + 2]!)) {
      count++;
      sumX += i % p.width;
    }
  }
  return { count, x: count > 0 ? sumX / count / p.width : Number.NaN };
}

const red = (r: number, g: number, b: number) => r > 150 && g < 90 && b < 90;
const dark = (r: number, g: number, b: number) => r + g + b < 150;

describe('local-motion follows the scene', () => {
  it('changes over a 60 s clip, and the named subject travels across it', async () => {
    const file = await render('motion', {
      prompt: 'a red fox in a green meadow',
      duration: 60,
      aspect_ratio: '1:1',
      provider_options: { local: { fps: 10, seed: 4 } },
    });
    const [first, middle, last] = await Promise.all([0, 30, 59.8].map((s) => pixelsAt(file, s)));
    expect(difference(first!, middle!)).toBeGreaterThan(8);
    expect(difference(middle!, last!)).toBeGreaterThan(8);
    expect(difference(first!, last!)).toBeGreaterThan(8);
    const [start, centre, end] = [first!, middle!, last!].map((p) => region(p, red));
    for (const fox of [start!, centre!, end!]) expect(fox.count).toBeGreaterThan(500);
    // The fox crosses about a third of the frame, one way, over the clip.
    expect(Math.abs(end!.x - start!.x)).toBeGreaterThan(0.2);
    expect(Math.sign(centre!.x - start!.x)).toBe(Math.sign(end!.x - centre!.x));
  });

  it.each([
    ['rain', 'rain over a lake'],
    ['snow', 'snow falling on a lake'],
  ])('lets %s fall in front of the picture', async (_, prompt) => {
    // A solid start frame: the camera's move changes nothing in it, so what moves is the weather.
    const blue = await solidImage(path.join(dir, 'sky.png'), 320, 180, { r: 30, g: 60, b: 140 });
    const body = (words: string) => ({
      prompt: words,
      files: filesOf(blue),
      duration: 2,
      provider_options: { local: { fps: 10 } },
    });
    const falling = await render('motion-i2v', body(prompt));
    const still = await render('motion-i2v', body('a lake'));
    const [a, b] = await Promise.all([pixelsAt(falling, 0.5), pixelsAt(falling, 1.2)]);
    const [c, d] = await Promise.all([pixelsAt(still, 0.5), pixelsAt(still, 1.2)]);
    expect(difference(a, b, 0, 0.3)).toBeGreaterThan(3 * difference(c, d, 0, 0.3) + 1);
    // Particles lighter than the sky are in its top third.
    expect(difference(a, c, 0, 0.3)).toBeGreaterThan(1);
  });

  it('text to video: snow falls in the sky, and "in the snow" snows too', async () => {
    const body = (prompt: string) => ({
      prompt,
      // Long enough that the camera moves little between two frames close together; the snow does not.
      duration: 20,
      aspect_ratio: '16:9',
      provider_options: { local: { fps: 10, seed: 3, motion: 'zoom-in' } },
    });
    const change = async (prompt: string) => {
      const file = await render('motion', body(prompt));
      return difference(await pixelsAt(file, 8), await pixelsAt(file, 8.4), 0, 0.3);
    };
    const calm = await change('a city at night');
    expect(await change('a city at night, snowing')).toBeGreaterThan(2 * calm);
    expect(await change('a red fox in the snow at night')).toBeGreaterThan(2 * calm);
  });
});

describe('local-motion-i2v moves the start frame as the prompt says', () => {
  /** Grey with a black square in the middle: where the square goes is where the picture goes. */
  async function marked(): Promise<string> {
    const file = path.join(dir, 'marked.png');
    const square = await sharp({
      create: { width: 40, height: 40, channels: 3, background: { r: 0, g: 0, b: 0 } },
    })
      .png()
      .toBuffer();
    await sharp({ create: { width: 320, height: 180, channels: 3, background: { r: 180, g: 180, b: 180 } } })
      .composite([{ input: square, left: 140, top: 70 }])
      .png()
      .toFile(file);
    return file;
  }

  const run = async (prompt: string) => {
    const file = await render('motion-i2v', {
      prompt,
      files: filesOf(await marked()),
      duration: 2,
      provider_options: { local: { fps: 10 } },
    });
    return [region(await pixelsAt(file, 0), dark), region(await pixelsAt(file, 1.9), dark)] as const;
  };

  it('"pan left": the camera turns left, so the picture slides right', async () => {
    const [start, end] = await run('slowly pan left across the harbour');
    expect(end.x - start.x).toBeGreaterThan(0.1);
  });

  it('"pan right": the picture slides left', async () => {
    const [start, end] = await run('pan right');
    expect(start.x - end.x).toBeGreaterThan(0.1);
  });

  it('"zoom in": the square grows, staying in the middle', async () => {
    const [start, end] = await run('zoom in on the door');
    expect(end.count).toBeGreaterThan(start.count * 1.3);
    expect(Math.abs(end.x - 0.5)).toBeLessThan(0.03);
  });

  it('"zoom out": the square shrinks', async () => {
    const [start, end] = await run('zoom out to reveal the town');
    expect(end.count).toBeLessThan(start.count / 1.3);
  });

  it('reads camera words, and leaves other prompts to the default', () => {
    expect(motionFromPrompt('Pan left over the bay')).toBe('pan-left');
    expect(motionFromPrompt('tracking right with the runner')).toBe('pan-right');
    expect(motionFromPrompt('push in on her face, then pull back')).toBe('zoom-in');
    expect(motionFromPrompt('a slow zoom out')).toBe('zoom-out');
    expect(motionFromPrompt('a panda on the left')).toBeUndefined();
  });
});
