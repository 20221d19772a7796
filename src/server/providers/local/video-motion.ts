import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import type { z } from 'zod';
import { type MOTION_KINDS, MotionOptions } from '../../domain/catalog/models/local-options.ts';
import type { RunResult } from '../../domain/jobs/provider.ts';
import { checkAborted, EngineInputError } from './engine-run.ts';
import { composeLayers, sketchDimensions } from './image-engine.ts';
import type { LocalEngine } from './local-provider.ts';
import type { Scene } from './scene-parse.ts';
import {
  billedSeconds,
  encode,
  evenNearest,
  fileUrls,
  H264,
  inputArgs,
  localOptions,
  MP4_TAIL,
  readToDisk,
  requirePicture,
  type VideoJob,
  type VideoJobOptions,
  withVideoJob,
} from './video-job.ts';

/*
 * local-motion and local-motion-i2v: a scene that moves, encoded to H.264 in one ffmpeg filter graph.
 * Not a neural model. Text to video composes the prompt's scene in layers (image-engine's composeLayers):
 * the camera zooms or pans over the backdrop, the subjects travel across it, rain or snow falls in front,
 * and the light changes over the clip. Image to video moves the camera over the start frame, in the
 * direction the prompt asks ("zoom in", "pan left"), with the prompt's rain or snow falling over it.
 */

export type MotionKind = (typeof MOTION_KINDS)[number];

const MAX_MOTION_SECONDS = 60;
const DEFAULT_SECONDS = 5;
const DEFAULT_FPS = 24;
/** Pixels of a 854x480 frame: every aspect ratio gets about as many (fast, and sharp enough). */
const FRAME_AREA = 854 * 480;
const MAX_EDGE = 1280;
/**
 * The still is prepared this many times larger than the video: zoompan crops at whole (even, for 4:2:0)
 * pixels of its input, so a larger input makes the move smooth instead of jittery.
 */
const SUPERSAMPLE = 3;
/** How far the camera zooms (zoom-in ends, zoom-out starts, pans hold this zoom to have room to move). */
const ZOOM = 1.25;
const PAN_ZOOM = 1.2;

/** Video size for a width/height ratio: about FRAME_AREA pixels, long edge at most MAX_EDGE, even sides. */
export function motionSize(ratio: number): { width: number; height: number } {
  let width = Math.sqrt(FRAME_AREA * ratio);
  let height = Math.sqrt(FRAME_AREA / ratio);
  const shrink = Math.min(1, MAX_EDGE / Math.max(width, height));
  width *= shrink;
  height *= shrink;
  return { width: evenNearest(width), height: evenNearest(height) };
}

/** The width/height ratio of a `w:h` aspect ratio (validated like the sketch's). */
function ratioOf(aspectRatio: string): number {
  const { width, height } = sketchDimensions(aspectRatio, 4096);
  return width / height;
}

/**
 * The zoompan filter of a camera move over `frames` frames: eased from start to end so the move starts
 * and stops gently. The input is the supersampled still (one frame; zoompan makes `frames` of it).
 */
export function cameraMove(
  motion: MotionKind,
  frames: number,
  size: { width: number; height: number },
  fps: number,
): string {
  const progress = frames > 1 ? `on/${frames - 1}` : '0';
  const eased = `(1-cos(PI*${progress}))/2`;
  const centerX = 'iw/2-iw/zoom/2';
  const centerY = 'ih/2-ih/zoom/2';
  const grow = (ZOOM - 1).toFixed(3);
  const moves: Record<MotionKind, { z: string; x: string; y: string }> = {
    'zoom-in': { z: `1+${grow}*${eased}`, x: centerX, y: centerY },
    'zoom-out': { z: `${ZOOM}-${grow}*${eased}`, x: centerX, y: centerY },
    'pan-right': { z: `${PAN_ZOOM}`, x: `(iw-iw/zoom)*${eased}`, y: centerY },
    'pan-left': { z: `${PAN_ZOOM}`, x: `(iw-iw/zoom)*(1-${eased})`, y: centerY },
  };
  const { z, x, y } = moves[motion];
  return `zoompan=z='${z}':x='${x}':y='${y}':d=${frames}:s=${size.width}x${size.height}:fps=${fps}`;
}

/** Seconds asked in `duration`: default 5, at most 60. */
function durationOf(body: Record<string, unknown>): number {
  const value = body.duration ?? DEFAULT_SECONDS;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new EngineInputError('duration must be a number of seconds greater than 0.');
  }
  if (value > MAX_MOTION_SECONDS) {
    throw new EngineInputError(
      `duration ${value} s is too long: local motion makes at most ${MAX_MOTION_SECONDS} s.`,
    );
  }
  return value;
}

interface MotionPlan {
  options: z.output<typeof MotionOptions>;
  prompt: string;
  seconds: number;
  fps: number;
  motion: MotionKind;
}

/** Camera words a prompt may use, and the move each asks for. */
const PROMPT_MOVES: Array<[RegExp, MotionKind]> = [
  [/\b(zoom(s|ing)?|push(es|ing)?|dolly(ing)?) ?in(to)?\b/i, 'zoom-in'],
  [/\b(zoom(s|ing)?|pull(s|ing)?|dolly(ing)?) ?(out|back)\b/i, 'zoom-out'],
  [/\b(pan(s|ning)?|track(s|ing)?|truck(s|ing)?) ?(to the )?left\b/i, 'pan-left'],
  [/\b(pan(s|ning)?|track(s|ing)?|truck(s|ing)?) ?(to the )?right\b/i, 'pan-right'],
];

/** The camera move a prompt asks for in words, if any (the first named wins). */
export function motionFromPrompt(prompt: string): MotionKind | undefined {
  let found: { at: number; motion: MotionKind } | undefined;
  for (const [pattern, motion] of PROMPT_MOVES) {
    const at = prompt.search(pattern);
    if (at >= 0 && (!found || at < found.at)) found = { at, motion };
  }
  return found?.motion;
}

function planOf(body: Record<string, unknown>): MotionPlan {
  const options = localOptions(MotionOptions, body);
  const prompt = typeof body.prompt === 'string' ? body.prompt : '';
  return {
    options,
    prompt,
    seconds: durationOf(body),
    fps: options.fps ?? DEFAULT_FPS,
    // provider_options.local.motion, else the prompt's words, else a slow zoom in.
    motion: options.motion ?? motionFromPrompt(prompt) ?? 'zoom-in',
  };
}

/** Layers moved over the camera's picture, each a PNG in the job's dir (video-sized, transparent). */
interface MovingLayers {
  subjects: string | null;
  falling: { file: string; kind: 'rain' | 'snow' } | null;
  /** How the light changes over the clip, when it does. */
  light: LightChange | null;
  /** Which way the subjects travel: 1 to the right, -1 to the left. */
  heading: 1 | -1;
}

/** Brightness (eq's -1..1) at the clip's start and end. */
type LightChange = { from: number; to: number };

/** The day wanes, dusk falls, night deepens: light that changes as the clip goes on. */
function lightOf(scene: Scene): LightChange {
  if (scene.time === 'sunset') return { from: 0.04, to: -0.14 };
  if (scene.time === 'night') return { from: 0.03, to: -0.05 };
  return { from: 0.05, to: -0.07 };
}

/** Share of the frame the subjects travel over a whole clip (from -TRAVEL/2 to +TRAVEL/2 of centre). */
const TRAVEL = 0.36;
/** Frames per second a rain drop and a snowflake fall, as a share of the frame's height. */
const FALL_SPEED = { rain: 0.9, snow: 0.12 };

/**
 * A still input (one PNG frame) repeated as a stream at `fps`: converted to the overlay's pixel format
 * once and repeated from memory. Looping the file at the input instead (`-loop 1`) decodes the PNG and
 * converts it again for every frame, which cost more than the rest of the clip's filtering and encoding
 * for a full-frame weather layer (measured in bench/engines.ts).
 */
const heldStill = (input: number, fps: number, label: string) =>
  `[${input}:v]format=yuva420p,loop=loop=-1:size=1,setpts=N/${fps}/TB[${label}]`;

/**
 * The filter graph: input 0 is the supersampled still under the camera; then the subjects and the
 * falling layer when there are any (single PNG frames, held for the clip). Ends in [out].
 */
export function motionGraph(
  plan: MotionPlan,
  frames: number,
  size: { width: number; height: number },
  layers: MovingLayers,
): string {
  const seconds = (frames / plan.fps).toFixed(3);
  const progress = `min(t/${seconds},1)`;
  const chains = [`[0:v]${cameraMove(plan.motion, frames, size, plan.fps)},setsar=1[cam]`];
  let last = 'cam';
  let input = 1;
  if (layers.subjects) {
    // Across the frame, eased, with a small hop or bob so a still subject still reads as alive.
    const x = `${layers.heading}*W*${TRAVEL}*((1-cos(PI*${progress}))/2-0.5)`;
    const y = `-H*0.015*abs(sin(PI*t*1.5))`;
    chains.push(
      heldStill(input, plan.fps, 'subjects'),
      `[${last}][subjects]overlay=x='${x}':y='${y}':eval=frame[moved]`,
    );
    last = 'moved';
    input++;
  }
  if (layers.falling) {
    // The layer is two frames tall (the weather above itself) and scrolls down one frame's height,
    // then starts again: one blend per frame, and the sky never runs dry.
    const speed = FALL_SPEED[layers.falling.kind];
    const y = `mod(t*${speed}*H,H)-H`;
    const x = layers.falling.kind === 'snow' ? `W*0.015*sin(t*0.8)` : '0';
    chains.push(
      heldStill(input, plan.fps, 'falling'),
      `[${last}][falling]overlay=x='${x}':y='${y}':eval=frame[fell]`,
    );
    last = 'fell';
    input++;
  }
  const light = layers.light
    ? `eq=brightness='${layers.light.from}+(${(layers.light.to - layers.light.from).toFixed(3)})*${progress}':eval=frame,`
    : '';
  chains.push(`[${last}]${light}format=yuv420p[out]`);
  return chains.join(';');
}

/** The layer above itself: twice as tall, so scrolling it down by its height repeats seamlessly. */
function stacked(layer: Buffer, size: { width: number; height: number }): Promise<Buffer> {
  return sharp({
    create: {
      width: size.width,
      height: size.height * 2,
      channels: 4,
      background: { r: 0, g: 0, b: 0, alpha: 0 },
    },
  })
    .composite([
      { input: layer, left: 0, top: 0 },
      { input: layer, left: 0, top: size.height },
    ])
    .png({ compressionLevel: 1 })
    .toBuffer();
}

/** Writes the moving layers of `prompt`'s scene for a video of `size` into the job's dir. */
async function writeLayers(
  job: VideoJob,
  plan: MotionPlan,
  size: { width: number; height: number },
  withScene: boolean,
): Promise<{ layers: MovingLayers; backdrop: Buffer }> {
  const seed = plan.options.seed ?? 0;
  const big = { width: size.width * SUPERSAMPLE, height: size.height * SUPERSAMPLE };
  const composed = await composeLayers({ prompt: plan.prompt, seed }, withScene ? big : null, size);
  const write = async (name: string, data: Buffer) => {
    const file = path.join(job.dir, name);
    await writeFile(file, data);
    return file;
  };
  const { scene } = composed;
  const snow = scene.weather.includes('snowfall');
  return {
    backdrop: composed.backdrop,
    layers: {
      subjects: composed.subjects ? await write('subjects.png', composed.subjects) : null,
      falling: composed.falling
        ? {
            file: await write('falling.png', await stacked(composed.falling, size)),
            kind: snow ? 'snow' : 'rain',
          }
        : null,
      light: withScene ? lightOf(scene) : null,
      heading: seed % 2 === 0 ? 1 : -1,
    },
  };
}

/** Share of the progress bar for preparing the still. */
const PREPARED = 0.15;
const ENCODED = 0.95;

/** Encodes the scene over the still at `source` (already SUPERSAMPLE times the video size) to an MP4. */
async function renderMove(
  job: VideoJob,
  source: string,
  size: { width: number; height: number },
  plan: MotionPlan,
  layers: MovingLayers,
): Promise<RunResult> {
  const frames = Math.max(1, Math.round(plan.seconds * plan.fps));
  const output = path.join(job.dir, 'motion.mp4');
  const extra = [layers.subjects, layers.falling?.file].filter((file): file is string => Boolean(file));
  await encode(
    job,
    [
      ...inputArgs(source),
      ...extra.flatMap((file) => inputArgs(file)),
      '-filter_complex',
      motionGraph(plan, frames, size, layers),
      '-map',
      '[out]',
      '-frames:v',
      `${frames}`,
      ...H264,
      '-an',
      ...MP4_TAIL,
      output,
    ],
    {
      expectedSeconds: frames / plan.fps,
      from: PREPARED,
      to: ENCODED,
      message: `Rendering ${plan.motion} (${plan.seconds} s at ${plan.fps} fps)`,
    },
  );
  const data = await readFile(output);
  checkAborted(job.context.signal);
  job.context.progress(1, 'Done');
  return {
    outputs: [{ kind: 'file', data, mediaType: 'video/mp4', name: 'motion.mp4' }],
    billedUnits: { seconds: billedSeconds(plan.seconds) },
    providerStatus: 'succeeded',
  };
}

/** local-motion: the prompt's scene, moving (seed and aspect ratio honoured). */
export function createMotionJob(options: VideoJobOptions): LocalEngine {
  return async (input, context) => {
    const { body } = input;
    const plan = planOf(body);
    const aspectRatio = typeof body.aspect_ratio === 'string' ? body.aspect_ratio : '16:9';
    const size = motionSize(ratioOf(aspectRatio));
    return withVideoJob(options, context, async (job) => {
      checkAborted(context.signal);
      context.progress(0, 'Composing the scene');
      const { layers, backdrop } = await writeLayers(job, plan, size, true);
      checkAborted(context.signal);
      context.progress(PREPARED, 'Scene ready');
      const source = path.join(job.dir, 'still.png');
      await writeFile(source, backdrop);
      return renderMove(job, source, size, plan, layers);
    });
  };
}

/**
 * local-motion-i2v: the same moves over the start frame in `files[0]`. The video follows `aspect_ratio`
 * when given (the picture is cropped to fill it), else the picture's own shape.
 */
export function createMotionI2vJob(options: VideoJobOptions): LocalEngine {
  return async (input, context) => {
    const { body } = input;
    const plan = planOf(body);
    const [url] = fileUrls(body, 'local-motion-i2v (a start frame image)', 1, 1);
    return withVideoJob(options, context, async (job) => {
      context.progress(0, 'Reading the start frame');
      const image = await readToDisk(job, url!, 'start-frame', 'files[0]');
      const { width, height } = await requirePicture(image, 'files[0]');
      const ratio = typeof body.aspect_ratio === 'string' ? ratioOf(body.aspect_ratio) : width / height;
      const size = motionSize(ratio);
      checkAborted(context.signal);
      context.progress(PREPARED / 2, 'Preparing the start frame');
      const source = path.join(job.dir, 'still.png');
      await sharp(image, { autoOrient: true })
        .resize(size.width * SUPERSAMPLE, size.height * SUPERSAMPLE, { fit: 'cover', kernel: 'lanczos3' })
        .flatten({ background: '#000000' })
        .png({ compressionLevel: 1 })
        .toFile(source);
      const { layers } = await writeLayers(job, plan, size, false);
      return renderMove(job, source, size, plan, layers);
    });
  };
}
