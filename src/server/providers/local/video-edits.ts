import path from 'node:path';
import { VideoTrimOptions, VideoUpscaleOptions } from '../../domain/catalog/models/local-options.ts';
import { EngineInputError } from './engine-run.ts';
import type { LocalEngine } from './local-provider.ts';
import {
  AAC,
  encode,
  evenDown,
  fileUrls,
  H264,
  inputArgs,
  type LocalMedia,
  localOptions,
  MP4_TAIL,
  mp4Result,
  readMedia,
  requireVideo,
  secondsArg,
  type VideoJobOptions,
  withVideoJob,
} from './video-job.ts';

/*
 * local-video-upscale and local-video-trim: real edits of the video in `files[0]` with ffmpeg, re-encoded
 * to H.264/AAC in MP4 (the sound is kept).
 */

/** The long edge of an upscaled video stops at 4K UHD. */
const MAX_UPSCALE_EDGE = 3840;
const READ = 0.1;
const ENCODED = 0.95;

/** Streams to keep: the picture, and the sound when there is one. */
function keepStreams(media: LocalMedia): string[] {
  return ['-map', '0:v:0', ...(media.info.audio ? ['-map', '0:a:0', ...AAC] : ['-an'])];
}

/**
 * The upscaled size: `factor` times, capped so the long edge stays within 3840 (aspect kept, even sides).
 * Refused when the cap leaves no upscale at all.
 */
export function upscaleSize(
  source: { width: number; height: number },
  factor: 2 | 4,
  label = 'files[0]',
): { width: number; height: number } {
  const long = Math.max(source.width, source.height);
  const scale = Math.min(factor, MAX_UPSCALE_EDGE / long);
  const width = evenDown(source.width * scale);
  const height = evenDown(source.height * scale);
  if (width <= source.width || height <= source.height) {
    throw new EngineInputError(
      `${label} is ${source.width}x${source.height}: upscaling stops at ${MAX_UPSCALE_EDGE} pixels on the long edge, so it cannot be made larger.`,
    );
  }
  return { width, height };
}

/** local-video-upscale: 2x (default) or 4x with lanczos, long edge at most 3840. */
export function createVideoUpscaleJob(options: VideoJobOptions): LocalEngine {
  return async (input, context) => {
    const factor = localOptions(VideoUpscaleOptions, input.body).factor ?? 2;
    const [url] = fileUrls(input.body, 'local-video-upscale (a video)', 1, 1);
    return withVideoJob(options, context, async (job) => {
      context.progress(0, 'Reading files[0]');
      const media = await readMedia(job, url!, 'input-0', 'files[0]');
      const video = requireVideo(media, 'local-video-upscale');
      const size = upscaleSize(video, factor);
      const output = path.join(job.dir, 'upscaled.mp4');
      await encode(
        job,
        [
          ...inputArgs(media.file),
          ...keepStreams(media),
          '-vf',
          `scale=${size.width}:${size.height}:flags=lanczos,setsar=1`,
          ...H264,
          ...MP4_TAIL,
          output,
        ],
        {
          expectedSeconds: video.seconds,
          from: READ,
          to: ENCODED,
          message: `Upscaling ${video.width}x${video.height} to ${size.width}x${size.height}`,
        },
      );
      return mp4Result(job, output, `upscaled-${factor}x.mp4`);
    });
  };
}

/** local-video-trim: `start` to `end` (default the end) of files[0], re-encoded so the cut is frame-exact. */
export function createVideoTrimJob(options: VideoJobOptions): LocalEngine {
  return async (input, context) => {
    const { start, end } = localOptions(VideoTrimOptions, input.body);
    const [url] = fileUrls(input.body, 'local-video-trim (a video)', 1, 1);
    return withVideoJob(options, context, async (job) => {
      context.progress(0, 'Reading files[0]');
      const media = await readMedia(job, url!, 'input-0', 'files[0]');
      const video = requireVideo(media, 'local-video-trim');
      if (start >= video.seconds) {
        throw new EngineInputError(
          `start ${start} s is not before the end of files[0], which lasts ${secondsArg(video.seconds)} s.`,
        );
      }
      const length = Math.min(end ?? video.seconds, video.seconds) - start;
      const output = path.join(job.dir, 'trimmed.mp4');
      // -ss before -i seeks, and when re-encoding ffmpeg drops the frames before `start` exactly.
      await encode(
        job,
        [
          ...inputArgs(media.file, ['-ss', secondsArg(start)]),
          '-t',
          secondsArg(length),
          ...keepStreams(media),
          ...H264,
          ...MP4_TAIL,
          output,
        ],
        {
          expectedSeconds: length,
          from: READ,
          to: ENCODED,
          message: `Cutting ${secondsArg(start)} s to ${secondsArg(start + length)} s`,
        },
      );
      return mp4Result(job, output, 'trimmed.mp4');
    });
  };
}
