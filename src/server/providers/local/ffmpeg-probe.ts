import { EngineInputError } from './engine-run.ts';
import { ffmpegStderr, lastErrorLine } from './ffmpeg-binary.ts';

/** What ffmpeg says about a media file (the bundled ffmpeg has no ffprobe: `ffmpeg -i file` is read). */
export interface MediaInfo {
  /** The demuxer, for example `mov,mp4,m4a,3gp,3g2,mj2`, `matroska,webm`, `mp3`, `png_pipe`, `gif`. */
  format: string;
  /** Null when the container does not say (still images, GIF). */
  durationSeconds: number | null;
  /** The first picture stream (cover art is not a picture stream); sizes as displayed (rotation applied). */
  video: { codec: string; width: number; height: number; fps: number | null } | null;
  /** The first sound stream. */
  audio: { codec: string; sampleRate: number | null; channels: string | null } | null;
}

/**
 * Parses the stderr of `ffmpeg -hide_banner -i <file>` (input #0 only). Null when there is no input
 * section (ffmpeg could not open or recognise the file).
 */
export function parseProbe(stderr: string): MediaInfo | null {
  const lines = stderr.split(/\r?\n/);
  const start = lines.findIndex((line) => /^Input #0, /.test(line));
  if (start < 0) return null;
  const header = /^Input #0, (.+?), from '/.exec(lines[start] ?? '');
  const info: MediaInfo = {
    format: header?.[1] ?? 'unknown',
    durationSeconds: null,
    video: null,
    audio: null,
  };
  let rotation = 0;
  let inVideo = false;
  for (const line of lines.slice(start + 1)) {
    if (/^(Input #\d|Output #|Stream mapping:|At least one output)/.test(line)) break;
    const duration = /Duration: (\d+):(\d{2}):(\d{2}(?:\.\d+)?)/.exec(line);
    if (duration) {
      info.durationSeconds = Number(duration[1]) * 3600 + Number(duration[2]) * 60 + Number(duration[3]);
      continue;
    }
    const stream = /^\s*Stream #0:\d+\S*: (Video|Audio): ([^\s,]+)(.*)$/.exec(line);
    if (stream) {
      const [, kind, codec = '', rest = ''] = stream;
      inVideo = false;
      if (kind === 'Video' && !info.video && !rest.includes('(attached pic)')) {
        const size = /, (\d+)x(\d+)/.exec(rest);
        const fps = /, (\d+(?:\.\d+)?) fps/.exec(rest) ?? /, (\d+(?:\.\d+)?) tbr/.exec(rest);
        if (size) {
          const sar = /SAR (\d+):(\d+)/.exec(rest);
          let width = Number(size[1]);
          const height = Number(size[2]);
          // Non-square pixels: displayed width is stored width × SAR.
          if (sar && Number(sar[1]) > 0 && Number(sar[2]) > 0 && sar[1] !== sar[2]) {
            width = Math.round((width * Number(sar[1])) / Number(sar[2]));
          }
          info.video = { codec, width, height, fps: fps ? Number(fps[1]) : null };
          inVideo = true;
        }
      } else if (kind === 'Audio' && !info.audio) {
        const rate = /, (\d+) Hz/.exec(rest);
        const channels = /Hz, ([^,]+)/.exec(rest);
        info.audio = {
          codec,
          sampleRate: rate ? Number(rate[1]) : null,
          channels: channels?.[1]?.trim() ?? null,
        };
      }
      continue;
    }
    if (inVideo) {
      const rotate =
        /^\s*rotate\s*:\s*(-?\d+)/.exec(line) ?? /rotation of (-?\d+(?:\.\d+)?) degrees/.exec(line);
      if (rotate) rotation = Math.round(Number(rotate[1]));
    }
  }
  // ffmpeg turns rotated pictures upright when it encodes: plan with the upright size.
  if (info.video && Math.abs(rotation) % 180 === 90) {
    info.video = { ...info.video, width: info.video.height, height: info.video.width };
  }
  return info;
}

/** Demuxers we read. Anything else (playlists, concat lists, devices...) is refused before it is used. */
const READABLE_FORMATS = new Set([
  'mov',
  'mp4',
  'matroska',
  'webm',
  'avi',
  'flv',
  'mpegts',
  'mpeg',
  'ogg',
  'mp3',
  'wav',
  'flac',
  'aac',
  'aiff',
  'asf',
  'gif',
  // Stills named with an extension (our own intermediate files; inputs are written without one).
  'image2',
  'png_pipe',
  'jpeg_pipe',
  'webp_pipe',
  'bmp_pipe',
  'tiff_pipe',
]);

export function isReadableFormat(format: string): boolean {
  return format.split(',').some((name) => READABLE_FORMATS.has(name));
}

/**
 * Probes a local file with ffmpeg itself (`-protocol_whitelist file`: a playlist cannot reach the
 * network). Unreadable or unsupported media is the input's fault: EngineInputError naming `label`.
 */
export async function probeMedia(
  binary: string,
  file: string,
  label: string,
  signal?: AbortSignal,
): Promise<MediaInfo> {
  const { stderr } = await ffmpegStderr(binary, ['-protocol_whitelist', 'file', '-i', file], signal);
  const info = parseProbe(stderr);
  if (!info) {
    const line = lastErrorLine(stderr).replaceAll(file, label);
    throw new EngineInputError(`${label} is not media ffmpeg can read: ${line}`);
  }
  if (!isReadableFormat(info.format)) {
    throw new EngineInputError(
      `${label} is ${info.format}, which is not a media file this service processes.`,
    );
  }
  if (!info.video && !info.audio) throw new EngineInputError(`${label} has neither picture nor sound.`);
  return info;
}
