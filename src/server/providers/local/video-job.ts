import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { z } from 'zod';
import type { RunContext, RunResult } from '../../domain/jobs/provider.ts';
import { checkAborted, EngineInputError } from './engine-run.ts';
import { runFfmpeg } from './ffmpeg-binary.ts';
import { containerOf, kindOf } from './ffmpeg-operations.ts';
import { type MediaInfo, probeMedia } from './ffmpeg-probe.ts';

/*
 * What the local video engines (motion, upscale, trim, concat, audio replacement) and the renderer share:
 * a temp dir per job, inputs read to disk and probed, ffmpeg runs whose progress and messages speak of
 * `files[0]` rather than temp paths, and an MP4 result billed by its real length.
 */

export interface VideoJobOptions {
  /** The ffmpeg binary (resolved on first use): see ffmpegPath. */
  binary: () => string;
  /** Where each job's temp dir is made (default the system's). */
  tmpRoot?: string;
}

/** One running job: its ffmpeg, its temp dir and its context. */
export interface VideoJob {
  binary: string;
  dir: string;
  context: RunContext;
  /** Temp paths and how people know them, for ffmpeg's messages. */
  labels: Map<string, string>;
}

/** An input file on disk, probed. */
export interface LocalMedia {
  file: string;
  label: string;
  info: MediaInfo;
}

/** H.264 in 4:2:0, which every player reads. */
export const H264 = ['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '20', '-pix_fmt', 'yuv420p'];
export const AAC = ['-c:a', 'aac', '-b:a', '160k'];
/** No metadata copied from inputs (titles, GPS...), index first so players can start early. */
export const MP4_TAIL = ['-sn', '-dn', '-map_metadata', '-1', '-movflags', '+faststart'];

/** `-i file` limited to local files (a playlist cannot reach the network). */
export const inputArgs = (file: string, before: readonly string[] = []) => [
  ...before,
  '-protocol_whitelist',
  'file',
  '-i',
  file,
];

export const evenDown = (n: number) => Math.max(2, Math.floor(n / 2) * 2);
export const evenNearest = (n: number) => Math.max(2, Math.round(n / 2) * 2);

/** Seconds as ffmpeg reads them (no exponent notation). */
export const secondsArg = (value: number) => value.toFixed(3);

/** Runs `work` with a fresh temp dir, always removed afterwards (success, failure or abort). */
export async function withVideoJob<T>(
  options: VideoJobOptions,
  context: RunContext,
  work: (job: VideoJob) => Promise<T>,
): Promise<T> {
  checkAborted(context.signal);
  const binary = options.binary();
  const dir = await mkdtemp(path.join(options.tmpRoot ?? os.tmpdir(), 'video-job-'));
  try {
    return await work({ binary, dir, context, labels: new Map() });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The request's `provider_options.local`, checked against the model's schema (defaults applied). */
export function localOptions<S extends z.ZodType>(schema: S, body: Record<string, unknown>): z.output<S> {
  const raw = (body.provider_options as Record<string, unknown> | undefined)?.local ?? {};
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    throw new EngineInputError(`provider_options.local: ${z.prettifyError(parsed.error)}`);
  }
  return parsed.data;
}

/** The URLs of `files`, checking how many the engine takes. */
export function fileUrls(body: Record<string, unknown>, what: string, min: number, max: number): string[] {
  const files = Array.isArray(body.files) ? (body.files as Array<{ url?: unknown }>) : [];
  const urls = files.map((file) => (typeof file?.url === 'string' ? file.url : ''));
  if (urls.length < min || urls.length > max || urls.some((url) => !url)) {
    const count = min === max ? `${min}` : `${min} to ${max}`;
    throw new EngineInputError(`${what} needs ${count} file${max === 1 ? '' : 's'} (got ${urls.length}).`);
  }
  return urls;
}

/** Reads an input URL into the job's dir as `name`. */
export async function readToDisk(job: VideoJob, url: string, name: string, label: string): Promise<Buffer> {
  checkAborted(job.context.signal);
  const { body } = await job.context.readInput(url);
  checkAborted(job.context.signal);
  const file = path.join(job.dir, name);
  await writeFile(file, body);
  job.labels.set(file, label);
  return body;
}

/** Reads and probes an input: unreadable media is the person's to fix (EngineInputError naming `label`). */
export async function readMedia(
  job: VideoJob,
  url: string,
  name: string,
  label: string,
): Promise<LocalMedia> {
  await readToDisk(job, url, name, label);
  const file = path.join(job.dir, name);
  const info = await probeMedia(job.binary, file, label, job.context.signal);
  return { file, label, info };
}

/** A video with a picture and a known length; stills and sounds are refused for `what`. */
export function requireVideo(
  media: LocalMedia,
  what: string,
): { width: number; height: number; fps: number | null; seconds: number } {
  const { info, label } = media;
  if (!info.video) throw new EngineInputError(`${what} needs a video; ${label} has no picture.`);
  if (kindOf(containerOf(info)) === 'image') {
    throw new EngineInputError(`${what} needs a video; ${label} is a still image.`);
  }
  const seconds = info.durationSeconds;
  if (seconds === null || !(seconds > 0)) {
    throw new EngineInputError(`${what} cannot tell how long ${label} lasts.`);
  }
  return { ...info.video, seconds };
}

/** Raster formats a picture input may be (read with sharp; SVG and the like are refused). */
const PICTURE_FORMATS = new Set(['png', 'jpeg', 'webp', 'gif', 'tiff', 'avif', 'heif']);

/** The upright size of a picture input; anything but a raster image is the person's to fix. */
export async function requirePicture(
  image: Buffer,
  label: string,
): Promise<{ width: number; height: number }> {
  const metadata = await sharp(image)
    .metadata()
    .catch(() => null);
  if (!metadata || !PICTURE_FORMATS.has(metadata.format)) {
    throw new EngineInputError(`${label} is not an image (PNG, JPEG, WebP, GIF, TIFF or AVIF).`);
  }
  return metadata.autoOrient;
}

export interface EncodeStep {
  /** Seconds the output should last, for progress. */
  expectedSeconds: number | null;
  /** The share of the job's progress bar this run covers. */
  from: number;
  to: number;
  message: string;
}

/** Runs ffmpeg (`args` end with the output), its progress mapped into the job's and its messages cleaned. */
export async function encode(job: VideoJob, args: readonly string[], step: EncodeStep): Promise<void> {
  const { context } = job;
  context.progress(step.from, step.message);
  await runFfmpeg(job.binary, args, {
    signal: context.signal,
    expectedSeconds: step.expectedSeconds,
    onProgress: (fraction) => context.progress(step.from + (step.to - step.from) * fraction, step.message),
    describe: (line) => describePaths(job, line),
  });
}

/** ffmpeg's words with temp paths turned into what people know (`files[0]`). */
function describePaths(job: VideoJob, line: string): string {
  let text = line;
  for (const [file, label] of job.labels) text = text.replaceAll(file, label);
  return text.replaceAll(`${job.dir}${path.sep}`, '');
}

/** Seconds billed for a result: its length to the millisecond. */
export const billedSeconds = (seconds: number) => Math.round(seconds * 1000) / 1000;

/** The MP4 written at `file` as the job's result, billed by the length it really has. */
export async function mp4Result(job: VideoJob, file: string, name: string): Promise<RunResult> {
  const info = await probeMedia(job.binary, file, 'the result', job.context.signal);
  const seconds = info.durationSeconds;
  if (seconds === null) throw new Error('ffmpeg wrote a video without a duration.');
  const data = await readFile(file);
  job.context.progress(1, 'Done');
  return {
    outputs: [{ kind: 'file', data, mediaType: 'video/mp4', name }],
    billedUnits: { seconds: billedSeconds(seconds) },
    providerStatus: 'succeeded',
  };
}
