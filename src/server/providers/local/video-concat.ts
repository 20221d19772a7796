import path from 'node:path';
import { VideoConcatOptions } from '../../domain/catalog/models/local-options.ts';
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
 * local-video-concat: the videos of `files` joined in order with ffmpeg's concat filter. Every picture is
 * fitted (letterboxed, aspect kept) to the first video's size and frame rate; a video without sound gets
 * silence when another has sound, so the segments line up.
 */

const CONCAT_FILES_MIN = 2;
const CONCAT_FILES_MAX = 10;
const RATE = 48_000;
const DEFAULT_FPS = 25;
const MAX_FPS = 60;
const READ = 0.15;
const ENCODED = 0.95;

interface ConcatInput {
  media: LocalMedia;
  seconds: number;
}

/** The filtergraph and maps joining `inputs` (input i of ffmpeg is inputs[i]). */
function concatGraph(inputs: readonly ConcatInput[]): { graph: string; maps: string[]; size: string } {
  const first = inputs[0]!.media.info.video!;
  const width = evenDown(first.width);
  const height = evenDown(first.height);
  const fps = Math.min(MAX_FPS, first.fps ?? DEFAULT_FPS);
  const audio = inputs.some((input) => input.media.info.audio);
  const audioFormat = `aformat=sample_fmts=fltp:sample_rates=${RATE}:channel_layouts=stereo`;
  const chains: string[] = [];
  const segments: string[] = [];
  inputs.forEach(({ media, seconds }, index) => {
    chains.push(
      `[${index}:v:0]scale=${width}:${height}:force_original_aspect_ratio=decrease,` +
        `pad=${width}:${height}:(ow-iw)/2:(oh-ih)/2,setsar=1,fps=${fps},format=yuv420p[v${index}]`,
    );
    segments.push(`[v${index}]`);
    if (!audio) return;
    chains.push(
      media.info.audio
        ? `[${index}:a:0]${audioFormat}[a${index}]`
        : `anullsrc=channel_layout=stereo:sample_rate=${RATE},atrim=duration=${secondsArg(seconds)},${audioFormat}[a${index}]`,
    );
    segments.push(`[a${index}]`);
  });
  chains.push(`${segments.join('')}concat=n=${inputs.length}:v=1:a=${audio ? 1 : 0}[v]${audio ? '[a]' : ''}`);
  return {
    graph: chains.join(';'),
    maps: ['-map', '[v]', ...(audio ? ['-map', '[a]', ...AAC] : ['-an'])],
    size: `${width}x${height}`,
  };
}

/** local-video-concat: 2 to 10 videos joined in order. */
export function createVideoConcatJob(options: VideoJobOptions): LocalEngine {
  return async (input, context) => {
    localOptions(VideoConcatOptions, input.body);
    const urls = fileUrls(
      input.body,
      'local-video-concat (videos to join)',
      CONCAT_FILES_MIN,
      CONCAT_FILES_MAX,
    );
    return withVideoJob(options, context, async (job) => {
      const inputs: ConcatInput[] = [];
      for (const [index, url] of urls.entries()) {
        const label = `files[${index}]`;
        context.progress((READ * index) / urls.length, `Reading ${label}`);
        const media = await readMedia(job, url, `input-${index}`, label);
        inputs.push({ media, seconds: requireVideo(media, 'local-video-concat').seconds });
      }
      const { graph, maps, size } = concatGraph(inputs);
      const total = inputs.reduce((sum, { seconds }) => sum + seconds, 0);
      const output = path.join(job.dir, 'joined.mp4');
      await encode(
        job,
        [
          ...inputs.flatMap(({ media }) => inputArgs(media.file)),
          '-filter_complex',
          graph,
          ...maps,
          ...H264,
          ...MP4_TAIL,
          output,
        ],
        {
          expectedSeconds: total,
          from: READ,
          to: ENCODED,
          message: `Joining ${inputs.length} videos at ${size}`,
        },
      );
      return mp4Result(job, output, 'joined.mp4');
    });
  };
}
