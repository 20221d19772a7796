import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { describeIssues } from '../../../contract/errors.ts';
import { type RenderLayer, RenderRequest } from '../../../contract/generation.ts';
import type { RunResult } from '../../domain/jobs/provider.ts';
import { checkAborted, EngineInputError } from './engine-run.ts';
import { planResize } from './ffmpeg-operations.ts';
import { probeMedia } from './ffmpeg-probe.ts';
import type { LocalEngine } from './local-provider.ts';
import {
  type PreparedLayer,
  planRender,
  type RenderCanvas,
  type RenderFormat,
  STILL_FORMATS,
} from './render-plan.ts';
import { textPng } from './render-text.ts';
import {
  billedSeconds,
  encode,
  readMedia,
  readToDisk,
  requirePicture,
  requireVideo,
  secondsArg,
  type VideoJob,
  type VideoJobOptions,
  withVideoJob,
} from './video-job.ts';

/*
 * local-render (`POST /render`): image, video, audio and text layers composed on a timeline with ffmpeg
 * into MP4, WebM, GIF, or a still (PNG, JPEG: the frame at 0 s). Layers are drawn in order, later on top.
 * A layer without `duration` lasts to the end of the render; a video or sound stops sooner when its
 * source (after `trim_start`) runs out.
 */

const MEDIA_TYPES: Record<RenderFormat, string> = {
  mp4: 'video/mp4',
  webm: 'video/webm',
  gif: 'image/gif',
  png: 'image/png',
  jpg: 'image/jpeg',
};
const PREPARED = 0.2;
const ENCODED = 0.95;

/** When the layer is on screen: [start, end) within the render, refused when it would never show. */
function onScreen(layer: RenderLayer, index: number, canvas: RenderCanvas): { start: number; end: number } {
  if (layer.start >= canvas.duration) {
    throw new EngineInputError(
      `layers[${index}] starts at ${layer.start} s, not before the end of the render (${canvas.duration} s).`,
    );
  }
  return { start: layer.start, end: Math.min(canvas.duration, layer.start + (layer.duration ?? Infinity)) };
}

/** The box of an image or video layer: the canvas size unless given. */
const boxOf = (layer: { width?: number | undefined; height?: number | undefined }, canvas: RenderCanvas) => ({
  width: layer.width ?? canvas.width,
  height: layer.height ?? canvas.height,
});

/** Source seconds left after trim_start, refused when nothing is left. */
function remaining(seconds: number, trimStart: number, index: number): number {
  if (trimStart >= seconds) {
    throw new EngineInputError(
      `layers[${index}].trim_start ${trimStart} s is past the end of its source (${secondsArg(seconds)} s).`,
    );
  }
  return seconds - trimStart;
}

async function prepareLayer(
  job: VideoJob,
  layer: RenderLayer,
  index: number,
  canvas: RenderCanvas,
): Promise<PreparedLayer> {
  const label = `layers[${index}]`;
  const name = `layer-${index}`;
  const file = path.join(job.dir, `${name}.png`);
  job.labels.set(file, label);
  const { start, end } = onScreen(layer, index, canvas);
  switch (layer.type) {
    case 'text': {
      await writeFile(file, await textPng(layer, canvas.width, canvas.height));
      return { kind: 'still', file, x: 0, y: 0, start, end };
    }
    case 'image': {
      const image = await readToDisk(job, layer.url, name, label);
      await requirePicture(image, label);
      const box = boxOf(layer, canvas);
      const fit = ({ cover: 'cover', contain: 'contain', stretch: 'fill' } as const)[layer.fit];
      await sharp(image, { autoOrient: true })
        .resize(box.width, box.height, {
          fit,
          kernel: 'lanczos3',
          background: { r: 0, g: 0, b: 0, alpha: 0 },
        })
        .ensureAlpha()
        .png({ compressionLevel: 1 })
        .toFile(file);
      return { kind: 'still', file, x: layer.x, y: layer.y, start, end };
    }
    case 'video': {
      const media = await readMedia(job, layer.url, name, label);
      const video = requireVideo(media, `${label} (a video layer)`);
      const left = remaining(video.seconds, layer.trim_start, index);
      const box = boxOf(layer, canvas);
      const resize = planResize(video, { ...box, fit: layer.fit }, false);
      return {
        kind: 'video',
        file: media.file,
        // A contained picture is centred in its box.
        x: layer.x + Math.floor((box.width - resize.width) / 2),
        y: layer.y + Math.floor((box.height - resize.height) / 2),
        resize,
        start,
        end: Math.min(end, start + left),
        trimStart: layer.trim_start,
        volume: layer.volume,
        sound: media.info.audio !== null && layer.volume > 0,
      };
    }
    case 'audio': {
      const media = await readMedia(job, layer.url, name, label);
      if (!media.info.audio) throw new EngineInputError(`${label} has no sound (an audio layer needs one).`);
      const seconds = media.info.durationSeconds;
      if (seconds === null) throw new EngineInputError(`Cannot tell how long ${label} lasts.`);
      const left = remaining(seconds, layer.trim_start, index);
      return {
        kind: 'audio',
        file: media.file,
        start,
        end: Math.min(end, start + left),
        trimStart: layer.trim_start,
        volume: layer.volume,
      };
    }
  }
}

/** local-render: the layers of a RenderRequest composed into one video or still. */
export function createRenderJob(options: VideoJobOptions): LocalEngine {
  return async (input, context): Promise<RunResult> => {
    const parsed = RenderRequest.safeParse(input.body);
    if (!parsed.success) throw new EngineInputError(describeIssues(parsed.error.issues).message);
    const request = parsed.data;
    const canvas: RenderCanvas = {
      width: request.width,
      height: request.height,
      fps: request.fps,
      duration: request.duration,
      background: request.background,
      format: request.format,
    };
    return withVideoJob(options, context, async (job) => {
      const layers: PreparedLayer[] = [];
      for (const [index, layer] of request.layers.entries()) {
        checkAborted(context.signal);
        context.progress(
          (PREPARED * index) / request.layers.length,
          `Preparing layers[${index}] (${layer.type})`,
        );
        layers.push(await prepareLayer(job, layer, index, canvas));
      }
      const still = STILL_FORMATS.has(canvas.format);
      const output = path.join(job.dir, `render.${canvas.format}`);
      await encode(job, planRender(canvas, layers, output), {
        expectedSeconds: still ? null : canvas.duration,
        from: PREPARED,
        to: ENCODED,
        message: still
          ? `Rendering the first frame (${canvas.width}x${canvas.height})`
          : `Rendering ${canvas.duration} s at ${canvas.width}x${canvas.height}, ${canvas.fps} fps`,
      });
      let seconds = 1;
      if (!still) {
        const info = await probeMedia(job.binary, output, 'the render', context.signal);
        // The container may say a few ms more (AAC pads its last frame): never bill past what was asked.
        seconds = billedSeconds(Math.min(info.durationSeconds ?? canvas.duration, canvas.duration));
      }
      const data = await readFile(output);
      context.progress(1, 'Done');
      return {
        outputs: [
          { kind: 'file', data, mediaType: MEDIA_TYPES[canvas.format], name: `render.${canvas.format}` },
        ],
        billedUnits: { seconds },
        providerStatus: 'succeeded',
      };
    });
  };
}
