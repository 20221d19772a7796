import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import type { z } from 'zod';
import { type MOTION_KINDS, MotionOptions } from '../../domain/catalog/models/local-options.ts';
import type { RunContext, RunResult } from '../../domain/jobs/provider.ts';
import { checkAborted, EngineInputError } from './engine-run.ts';
import { sketch, sketchDimensions } from './image-engine.ts';
import type { LocalEngine } from './local-provider.ts';
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
 * local-motion and local-motion-i2v: a camera move (zoom or pan) over one still picture, encoded to
 * H.264. Not a neural model: the picture is a procedural sketch of the prompt, or the start frame given.
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
  seconds: number;
  fps: number;
  motion: MotionKind;
}

function planOf(body: Record<string, unknown>): MotionPlan {
  const options = localOptions(MotionOptions, body);
  return {
    options,
    seconds: durationOf(body),
    fps: options.fps ?? DEFAULT_FPS,
    motion: options.motion ?? 'zoom-in',
  };
}

/** Share of the progress bar for preparing the still. */
const PREPARED = 0.15;
const ENCODED = 0.95;

/** Encodes the move over the still at `source` (already SUPERSAMPLE times the video size) to an MP4. */
async function renderMove(
  job: VideoJob,
  source: string,
  size: { width: number; height: number },
  plan: MotionPlan,
): Promise<RunResult> {
  const frames = Math.max(1, Math.round(plan.seconds * plan.fps));
  const output = path.join(job.dir, 'motion.mp4');
  await encode(
    job,
    [
      ...inputArgs(source),
      '-vf',
      `${cameraMove(plan.motion, frames, size, plan.fps)},setsar=1,format=yuv420p`,
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

/**
 * A part of the job's work, reported in its share [from, to] of the job's progress. The part's own end
 * ("Done" at its 100%) is not the job's, so it is reported as `finished` instead.
 */
const progressOf = (context: RunContext, from: number, to: number, finished: string) => ({
  signal: context.signal,
  onProgress: (fraction: number, message: string) =>
    context.progress(from + (to - from) * fraction, fraction >= 1 ? finished : message),
});

/** local-motion: a camera move over a procedural sketch of the prompt (seed and aspect ratio honoured). */
export function createMotionJob(options: VideoJobOptions): LocalEngine {
  return async (input, context) => {
    const { body } = input;
    const plan = planOf(body);
    const aspectRatio = typeof body.aspect_ratio === 'string' ? body.aspect_ratio : '16:9';
    const size = motionSize(ratioOf(aspectRatio));
    return withVideoJob(options, context, async (job) => {
      const still = await sketch(
        {
          prompt: typeof body.prompt === 'string' ? body.prompt : '',
          seed: plan.options.seed ?? 0,
          aspectRatio,
          longEdge: Math.max(size.width, size.height) * SUPERSAMPLE,
        },
        progressOf(context, 0, PREPARED, 'Sketch ready'),
      );
      const source = path.join(job.dir, 'still.png');
      await writeFile(source, still);
      return renderMove(job, source, size, plan);
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
      return renderMove(job, source, size, plan);
    });
  };
}
