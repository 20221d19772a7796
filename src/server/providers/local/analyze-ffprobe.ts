import { execFile } from 'node:child_process';
import { z } from 'zod';
import type { VideoFacts } from '../../../contract/video-analysis.ts';
import { AbortError, EngineInputError } from './engine-run.ts';
import { lastErrorLine } from './ffmpeg-binary.ts';
import { isReadableFormat } from './ffmpeg-probe.ts';

const number = z.coerce.number().optional().catch(undefined);
const FfprobeStream = z.looseObject({
  codec_type: z.string().optional(),
  codec_name: z.string().optional(),
  width: z.int().optional(),
  height: z.int().optional(),
  pix_fmt: z.string().optional(),
  avg_frame_rate: z.string().optional(),
  r_frame_rate: z.string().optional(),
  bit_rate: number,
  sample_rate: number,
  channels: z.int().optional(),
  channel_layout: z.string().optional(),
  disposition: z.looseObject({ attached_pic: z.int().optional() }).optional(),
  tags: z.looseObject({ rotate: number }).optional(),
  side_data_list: z.array(z.looseObject({ rotation: number })).optional(),
});
const FfprobeOutput = z.object({
  format: z.looseObject({
    format_name: z.string(),
    format_long_name: z.string().optional(),
    duration: number,
    bit_rate: number,
  }),
  streams: z.array(FfprobeStream),
});
type FfprobeStream = z.infer<typeof FfprobeStream>;

/** `30000/1001` and friends; null for `0/0` (unknown). */
function rate(fraction: string | undefined): number | null {
  const [num, den] = (fraction ?? '').split('/').map(Number);
  if (!num || !den || !Number.isFinite(num / den)) return null;
  return Number((num / den).toFixed(3));
}

function rotationOf(stream: FfprobeStream): number {
  const degrees =
    stream.tags?.rotate ?? stream.side_data_list?.find((d) => d.rotation !== undefined)?.rotation;
  return degrees ? ((Math.round(degrees) % 360) + 360) % 360 : 0;
}

/** The facts of a probed file; `sizeBytes` is what was read. */
export function factsOf(output: z.infer<typeof FfprobeOutput>, sizeBytes: number): VideoFacts {
  const { format, streams } = output;
  const video = streams.find((s) => s.codec_type === 'video' && !s.disposition?.attached_pic && s.width);
  const audio = streams.find((s) => s.codec_type === 'audio');
  return {
    duration_seconds: format.duration && format.duration > 0 ? format.duration : null,
    size_bytes: sizeBytes,
    container: format.format_name,
    container_name: format.format_long_name ?? null,
    bitrate: format.bit_rate ?? null,
    video: video
      ? {
          codec: video.codec_name ?? 'unknown',
          width: video.width ?? 0,
          height: video.height ?? 0,
          fps: rate(video.avg_frame_rate) ?? rate(video.r_frame_rate),
          bitrate: video.bit_rate ?? null,
          pixel_format: video.pix_fmt ?? null,
          rotation: rotationOf(video),
        }
      : null,
    audio: audio
      ? {
          codec: audio.codec_name ?? 'unknown',
          sample_rate: audio.sample_rate ?? null,
          channels: audio.channels ?? null,
          channel_layout: audio.channel_layout ?? null,
          bitrate: audio.bit_rate ?? null,
        }
      : null,
  };
}

/** Demuxers of single pictures (`png_pipe`, `jpeg_pipe`, `image2`...). */
const STILL_IMAGE = /(^|,)(image2|\w+_pipe)(,|$)/;

function jsonOf(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/**
 * Facts about a local file from `ffprobe -show_format -show_streams` (`-protocol_whitelist file`: a playlist
 * cannot reach the network). Files that are not a video this service reads are the input's fault:
 * EngineInputError naming `label`.
 */
export function probeVideoFacts(
  binary: string,
  file: string,
  sizeBytes: number,
  label: string,
  signal?: AbortSignal,
): Promise<VideoFacts> {
  const args = [
    ...['-v', 'error', '-protocol_whitelist', 'file'],
    ...['-print_format', 'json', '-show_format', '-show_streams', file],
  ];
  return new Promise((resolve, reject) => {
    execFile(
      binary,
      args,
      { signal, killSignal: 'SIGKILL', maxBuffer: 8 * 1024 * 1024, windowsHide: true },
      (error, stdout, stderr) => {
        if (signal?.aborted) return reject(new AbortError(signal.reason));
        if (error && typeof error.code !== 'number') {
          return reject(new Error(`ffprobe could not run (${binary}): ${error.message}`));
        }
        const parsed = error ? null : FfprobeOutput.safeParse(jsonOf(stdout));
        if (!parsed?.success) {
          const line = lastErrorLine(stderr || 'not a media file').replaceAll(file, label);
          return reject(new EngineInputError(`${label} is not media ffprobe can read: ${line}`));
        }
        const facts = factsOf(parsed.data, sizeBytes);
        if (!isReadableFormat(facts.container)) {
          return reject(
            new EngineInputError(
              `${label} is ${facts.container}, which is not a video this service analyzes.`,
            ),
          );
        }
        if (!facts.video || STILL_IMAGE.test(facts.container)) {
          return reject(new EngineInputError(`${label} has no moving picture: it is not a video.`));
        }
        resolve(facts);
      },
    );
  });
}
