import type { FfmpegOperation } from '../../../contract/generation.ts';
import { EngineInputError } from './engine-run.ts';
import type { MediaInfo } from './ffmpeg-probe.ts';

/*
 * The declared operations of `POST /ffmpeg` turned into ffmpeg argument arrays. Pure: no process is
 * started here, so the plans (sizes, codecs, filters) can be tested without ffmpeg.
 */

/** The files this engine writes, by extension. */
export type Container =
  | 'mp4'
  | 'mov'
  | 'mkv'
  | 'webm'
  | 'mp3'
  | 'wav'
  | 'ogg'
  | 'm4a'
  | 'flac'
  | 'png'
  | 'jpg'
  | 'webp'
  | 'gif';

type Kind = 'video' | 'audio' | 'image' | 'gif';
type VideoCodec = 'h264' | 'h265' | 'vp9' | 'av1' | 'copy';
type AudioCodec = 'aac' | 'mp3' | 'opus' | 'vorbis' | 'flac' | 'pcm_s16le' | 'copy';

interface ContainerSpec {
  kind: Kind;
  /** Media type of the file; `audioOnly` when it carries no picture. */
  mediaType: string;
  audioOnly?: string;
  video?: VideoCodec;
  audio?: AudioCodec;
}

const CONTAINERS: Record<Container, ContainerSpec> = {
  mp4: { kind: 'video', mediaType: 'video/mp4', audioOnly: 'audio/mp4', video: 'h264', audio: 'aac' },
  mov: { kind: 'video', mediaType: 'video/quicktime', video: 'h264', audio: 'aac' },
  mkv: {
    kind: 'video',
    mediaType: 'video/x-matroska',
    audioOnly: 'audio/x-matroska',
    video: 'h264',
    audio: 'aac',
  },
  webm: { kind: 'video', mediaType: 'video/webm', audioOnly: 'audio/webm', video: 'vp9', audio: 'opus' },
  mp3: { kind: 'audio', mediaType: 'audio/mpeg', audio: 'mp3' },
  wav: { kind: 'audio', mediaType: 'audio/wav', audio: 'pcm_s16le' },
  ogg: { kind: 'audio', mediaType: 'audio/ogg', audio: 'vorbis' },
  m4a: { kind: 'audio', mediaType: 'audio/mp4', audio: 'aac' },
  flac: { kind: 'audio', mediaType: 'audio/flac', audio: 'flac' },
  png: { kind: 'image', mediaType: 'image/png' },
  jpg: { kind: 'image', mediaType: 'image/jpeg' },
  webp: { kind: 'image', mediaType: 'image/webp' },
  gif: { kind: 'gif', mediaType: 'image/gif' },
};

const VIDEO_ENCODERS: Record<Exclude<VideoCodec, 'copy'>, string[]> = {
  h264: ['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23', '-pix_fmt', 'yuv420p'],
  h265: [
    '-c:v',
    'libx265',
    '-preset',
    'fast',
    '-crf',
    '28',
    '-pix_fmt',
    'yuv420p',
    '-x265-params',
    'log-level=error',
  ],
  vp9: ['-c:v', 'libvpx-vp9', '-deadline', 'realtime', '-cpu-used', '8', '-b:v', '0', '-crf', '35'],
  av1: ['-c:v', 'libaom-av1', '-cpu-used', '8', '-b:v', '0', '-crf', '35', '-strict', 'experimental'],
};

const AUDIO_ENCODERS: Record<Exclude<AudioCodec, 'copy'>, string[]> = {
  aac: ['-c:a', 'aac', '-b:a', '128k'],
  mp3: ['-c:a', 'libmp3lame', '-q:a', '4'],
  opus: ['-c:a', 'libopus', '-b:a', '96k'],
  vorbis: ['-c:a', 'libvorbis', '-q:a', '4'],
  flac: ['-c:a', 'flac'],
  pcm_s16le: ['-c:a', 'pcm_s16le'],
};

/** One input or intermediate file of a job. */
export interface Media {
  /** Absolute path in the job's temp dir. */
  file: string;
  /** How people know it: `files[0]`, or `the result of operations[1]`. */
  label: string;
  info: MediaInfo;
  container: Container;
}

/** One ffmpeg run: its arguments (after the common ones) and what it writes. */
export interface Step {
  args: string[];
  container: Container;
  /** Seconds the output should last, for progress; null when unknown or a still. */
  expectedSeconds: number | null;
}

export function mediaTypeOf(container: Container, hasVideo: boolean): string {
  const spec = CONTAINERS[container];
  return !hasVideo && spec.audioOnly ? spec.audioOnly : spec.mediaType;
}

export function kindOf(container: Container): Kind {
  return CONTAINERS[container].kind;
}

/** The container to keep when an operation does not choose one: what the file already is. */
export function containerOf(info: MediaInfo): Container {
  const names = info.format.split(',');
  const has = (name: string) => names.includes(name);
  if (has('gif')) return 'gif';
  if (names.some((name) => name.endsWith('_pipe') || name === 'image2')) {
    if (info.video?.codec === 'mjpeg') return 'jpg';
    if (info.video?.codec === 'webp') return 'webp';
    return 'png';
  }
  if (has('mp4')) return info.video ? 'mp4' : 'm4a';
  if (has('webm')) {
    const webmVideo = !info.video || ['vp8', 'vp9', 'av1'].includes(info.video.codec);
    const webmAudio = !info.audio || ['opus', 'vorbis'].includes(info.audio.codec);
    return webmVideo && webmAudio ? 'webm' : 'mkv';
  }
  if (!info.video) {
    if (has('mp3')) return 'mp3';
    if (has('wav') || has('aiff')) return 'wav';
    if (has('flac')) return 'flac';
    if (has('ogg')) return 'ogg';
    if (has('aac')) return 'm4a';
    return 'mp3';
  }
  return 'mp4';
}

/** H.264 and H.265 in 4:2:0 need even sizes; our mp4, mov and mkv encode H.264 unless told otherwise. */
function needsEven(container: Container, codec?: VideoCodec): boolean {
  const chosen = codec ?? CONTAINERS[container].video;
  return chosen === 'h264' || chosen === 'h265';
}

const evenDown = (n: number) => Math.max(2, n - (n % 2));
const evenNearest = (n: number) => Math.max(2, Math.round(n / 2) * 2);

export interface ResizePlan {
  width: number;
  height: number;
  filters: string[];
}

/**
 * Sizes of a resize, computed here from the probed size (so they are exact and even where the codec
 * needs it):
 * - one side only: the other follows the aspect ratio (nearest even for H.264, like ffmpeg's `-2`);
 * - `stretch`: exactly width × height, aspect ignored;
 * - `cover`: scaled to fill width × height, the overflow cropped evenly from both sides;
 * - `contain`: scaled to fit inside width × height keeping the aspect ratio, **no padding**: the
 *   output is at most width × height and exactly that on one side (no invented bars in the picture).
 * With H.264 an odd requested size is rounded down to even (4:2:0 cannot hold odd sizes).
 */
export function planResize(
  source: { width: number; height: number },
  op: { width?: number | undefined; height?: number | undefined; fit: 'contain' | 'cover' | 'stretch' },
  even: boolean,
): ResizePlan {
  const exact = (n: number) => (even ? evenDown(n) : Math.max(1, n));
  const derived = (n: number) => (even ? evenNearest(n) : Math.max(1, Math.round(n)));
  const { width: sw, height: sh } = source;
  const square = 'setsar=1';
  if (op.width === undefined && op.height === undefined) {
    throw new EngineInputError('resize needs width or height.');
  }
  if (op.height === undefined) {
    const width = exact(op.width!);
    const height = derived((sh * width) / sw);
    return { width, height, filters: [`scale=${width}:${height}`, square] };
  }
  if (op.width === undefined) {
    const height = exact(op.height);
    const width = derived((sw * height) / sh);
    return { width, height, filters: [`scale=${width}:${height}`, square] };
  }
  const boxWidth = exact(op.width);
  const boxHeight = exact(op.height);
  if (op.fit === 'stretch') {
    return {
      width: boxWidth,
      height: boxHeight,
      filters: [`scale=${boxWidth}:${boxHeight}`, square],
    };
  }
  if (op.fit === 'cover') {
    const factor = Math.max(boxWidth / sw, boxHeight / sh);
    const scaledWidth = Math.max(boxWidth, Math.round(sw * factor));
    const scaledHeight = Math.max(boxHeight, Math.round(sh * factor));
    return {
      width: boxWidth,
      height: boxHeight,
      filters: [`scale=${scaledWidth}:${scaledHeight}`, `crop=${boxWidth}:${boxHeight}`, square],
    };
  }
  const factor = Math.min(boxWidth / sw, boxHeight / sh);
  const inBox = (n: number, box: number) => {
    const value = Math.min(box, Math.max(1, Math.round(n * factor)));
    return even ? evenDown(value) : value;
  };
  const width = inBox(sw, boxWidth);
  const height = inBox(sh, boxHeight);
  return { width, height, filters: [`scale=${width}:${height}`, square] };
}

/** Seconds as ffmpeg reads them (no exponent notation). */
export function seconds(value: number): string {
  return value.toFixed(3);
}

function input(media: Media, before: string[] = []): string[] {
  return [...before, '-protocol_whitelist', 'file', '-i', media.file];
}

interface EncodeVideo {
  /** `0:v:0` or a filtergraph label such as `[v]`. */
  map: string;
  filters: string[];
  codec?: VideoCodec | undefined;
  /** Size of the picture after the filters (to make it even when the codec needs it). */
  size: { width: number; height: number } | null;
}

interface EncodeAudio {
  map: string;
  codec?: AudioCodec | undefined;
}

const GIF_PALETTE = 'split[a][b];[a]palettegen[p];[b][p]paletteuse';

/** Stream selection, filters and encoders for writing `target`. */
function encode(target: Container, video: EncodeVideo | null, audio: EncodeAudio | null): string[] {
  const spec = CONTAINERS[target];
  const args: string[] = [];
  const wantsVideo = spec.kind !== 'audio' && video !== null;
  const wantsAudio = (spec.kind === 'video' || spec.kind === 'audio') && audio !== null;
  if (wantsVideo) {
    const filters = [...video.filters];
    const codec = video.codec ?? spec.video;
    if (
      codec !== 'copy' &&
      spec.kind === 'video' &&
      needsEven(target, codec) &&
      video.size &&
      (video.size.width % 2 === 1 || video.size.height % 2 === 1)
    ) {
      filters.push(`scale=${evenDown(video.size.width)}:${evenDown(video.size.height)}`);
    }
    args.push('-map', video.map);
    if (spec.kind === 'gif') filters.push(GIF_PALETTE);
    if (filters.length > 0) {
      if (codec === 'copy') throw new EngineInputError('video_codec copy cannot be combined with changes.');
      args.push('-vf', filters.join(','));
    }
    if (spec.kind === 'video') {
      if (codec === 'copy') args.push('-c:v', 'copy');
      else if (codec) args.push(...VIDEO_ENCODERS[codec]);
      if (codec === 'h265' && (target === 'mp4' || target === 'mov')) args.push('-tag:v', 'hvc1');
    } else if (spec.kind === 'image') {
      args.push('-frames:v', '1');
      if (target === 'png') args.push('-c:v', 'png');
      if (target === 'jpg') args.push('-c:v', 'mjpeg', '-q:v', '2');
      if (target === 'webp') args.push('-c:v', 'libwebp', '-quality', '85');
    } else {
      args.push('-c:v', 'gif');
    }
  } else {
    args.push('-vn');
  }
  if (wantsAudio) {
    const codec = audio.codec ?? spec.audio;
    args.push('-map', audio.map);
    if (codec === 'copy') args.push('-c:a', 'copy');
    else if (codec) args.push(...AUDIO_ENCODERS[codec]);
    if (codec === 'opus' && (target === 'mp4' || target === 'mov')) args.push('-strict', 'experimental');
  } else {
    args.push('-an');
  }
  args.push('-sn', '-dn', '-map_metadata', '-1');
  if (target === 'mp4' || target === 'mov' || target === 'm4a') args.push('-movflags', '+faststart');
  return args;
}

const sizeOf = (info: MediaInfo) =>
  info.video ? { width: info.video.width, height: info.video.height } : null;

function needsPicture(media: Media, op: string): NonNullable<MediaInfo['video']> {
  if (!media.info.video) throw new EngineInputError(`${op} needs a picture; ${media.label} has none.`);
  return media.info.video;
}

function needsSound(media: Media, op: string): void {
  if (!media.info.audio) throw new EngineInputError(`${op} needs sound; ${media.label} has none.`);
}

function notStill(media: Media, op: string): void {
  if (kindOf(media.container) === 'image') {
    throw new EngineInputError(`${op} needs a video or a sound; ${media.label} is a still image.`);
  }
}

function videoOf(media: Media, filters: string[], size: EncodeVideo['size'], codec?: VideoCodec) {
  return media.info.video ? { map: '0:v:0', filters, codec, size } : null;
}

function audioOf(media: Media, codec?: AudioCodec): EncodeAudio | null {
  return media.info.audio ? { map: '0:a:0', codec } : null;
}

/** The ffmpeg run of one operation on one file (every operation except concat). */
export function planStep(op: Exclude<FfmpegOperation, { op: 'concat' }>, media: Media): Step {
  const duration = media.info.durationSeconds;
  switch (op.op) {
    case 'transcode': {
      const target = op.format;
      const spec = CONTAINERS[target];
      if (spec.kind === 'audio') {
        if (op.video_codec) {
          throw new EngineInputError(`${target} holds sound only: leave video_codec out.`);
        }
        needsSound(media, `transcode to ${target}`);
      }
      const video = spec.kind === 'video' ? videoOf(media, [], sizeOf(media.info), op.video_codec) : null;
      return {
        args: [...input(media), ...encode(target, video, audioOf(media, op.audio_codec))],
        container: target,
        expectedSeconds: duration,
      };
    }
    case 'resize': {
      const picture = needsPicture(media, 'resize');
      const target = media.container;
      const plan = planResize(picture, op, needsEven(target));
      return {
        args: [
          ...input(media),
          ...encode(
            target,
            videoOf(media, plan.filters, { width: plan.width, height: plan.height }),
            audioOf(media),
          ),
        ],
        container: target,
        expectedSeconds: duration,
      };
    }
    case 'trim': {
      notStill(media, 'trim');
      if (duration !== null && op.start >= duration) {
        throw new EngineInputError(
          `trim starts at ${op.start} s but ${media.label} lasts ${seconds(duration)} s.`,
        );
      }
      const length = op.duration ?? (op.end ?? 0) - op.start;
      const target = media.container;
      return {
        args: [
          ...input(media, ['-ss', seconds(op.start)]),
          '-t',
          seconds(length),
          ...encode(target, videoOf(media, [], sizeOf(media.info)), audioOf(media)),
        ],
        container: target,
        expectedSeconds: duration === null ? length : Math.min(length, duration - op.start),
      };
    }
    case 'extract_audio': {
      needsSound(media, 'extract_audio');
      return {
        args: [...input(media), ...encode(op.format, null, audioOf(media))],
        container: op.format,
        expectedSeconds: duration,
      };
    }
    case 'thumbnail': {
      needsPicture(media, 'thumbnail');
      if (duration !== null && op.at >= duration) {
        throw new EngineInputError(
          `thumbnail at ${op.at} s is past the end: ${media.label} lasts ${seconds(duration)} s.`,
        );
      }
      const before = op.at > 0 ? ['-ss', seconds(op.at)] : [];
      return {
        args: [...input(media, before), ...encode('jpg', videoOf(media, [], null), null)],
        container: 'jpg',
        expectedSeconds: null,
      };
    }
    case 'gif': {
      needsPicture(media, 'gif');
      const filters = [`fps=${op.fps}`, `scale=${op.width}:-1:flags=lanczos`];
      return {
        args: [...input(media), ...encode('gif', videoOf(media, filters, null), null)],
        container: 'gif',
        expectedSeconds: duration,
      };
    }
  }
}

/**
 * The last frame, for a thumbnail asked between the last frame and the end of the container (the sound
 * often lasts a little longer than the picture): decodes the final second, keeping the newest frame.
 */
export function planLastFrame(media: Media): Step {
  needsPicture(media, 'thumbnail');
  return {
    args: [
      ...input(media, ['-sseof', '-1']),
      '-map',
      '0:v:0',
      '-an',
      '-update',
      '1',
      '-c:v',
      'mjpeg',
      '-q:v',
      '2',
    ],
    container: 'jpg',
    expectedSeconds: null,
  };
}

const CONCAT_RATE = 48_000;

/**
 * Joins every file in order with the concat filter. Pictures are fitted (letterboxed) to the first
 * file's size and frame rate; a file without sound gets silence when another has sound. All files must
 * have a picture, or none (sounds only). Stills are refused.
 */
export function planConcat(media: readonly Media[]): Step {
  const first = media[0];
  if (!first || media.length < 2) throw new EngineInputError('concat needs at least 2 files.');
  for (const item of media) notStill(item, 'concat');
  const withPicture = media.filter((item) => item.info.video).length;
  if (withPicture !== 0 && withPicture !== media.length) {
    const odd = media.find((item) => !item.info.video)!;
    throw new EngineInputError(
      `concat needs all files with a picture or all without; ${odd.label} has no picture.`,
    );
  }
  const video = withPicture > 0;
  const audio = media.some((item) => item.info.audio);
  const firstKind = kindOf(first.container);
  const target: Container = video
    ? firstKind === 'video'
      ? first.container
      : 'mp4'
    : firstKind === 'audio' || first.container === 'webm' || first.container === 'mkv'
      ? first.container
      : 'mp3';

  const width = video ? evenDown(first.info.video!.width) : 0;
  const height = video ? evenDown(first.info.video!.height) : 0;
  const fps = Math.min(60, first.info.video?.fps ?? 25);
  const graph: string[] = [];
  const segments: string[] = [];
  const args: string[] = [];
  media.forEach((item, index) => {
    args.push(...input(item));
    if (video) {
      graph.push(
        `[${index}:v:0]scale=${width}:${height}:force_original_aspect_ratio=decrease,` +
          `pad=${width}:${height}:(ow-iw)/2:(oh-ih)/2,setsar=1,fps=${fps},format=yuv420p[v${index}]`,
      );
      segments.push(`[v${index}]`);
    }
    if (audio) {
      const format = `aformat=sample_fmts=fltp:sample_rates=${CONCAT_RATE}:channel_layouts=stereo`;
      if (item.info.audio) {
        graph.push(`[${index}:a:0]${format}[a${index}]`);
      } else {
        const length = item.info.durationSeconds;
        if (length === null) {
          throw new EngineInputError(`concat cannot add silence to ${item.label}: its duration is unknown.`);
        }
        graph.push(
          `anullsrc=channel_layout=stereo:sample_rate=${CONCAT_RATE},atrim=duration=${seconds(length)},${format}[a${index}]`,
        );
      }
      segments.push(`[a${index}]`);
    }
  });
  const outputs = `${video ? '[v]' : ''}${audio ? '[a]' : ''}`;
  graph.push(`${segments.join('')}concat=n=${media.length}:v=${video ? 1 : 0}:a=${audio ? 1 : 0}${outputs}`);
  const durations = media.map((item) => item.info.durationSeconds);
  const total = durations.every((d) => d !== null)
    ? durations.reduce<number>((sum, d) => sum + (d ?? 0), 0)
    : null;
  args.push(
    '-filter_complex',
    graph.join(';'),
    ...encode(
      target,
      video ? { map: '[v]', filters: [], size: { width, height } } : null,
      audio ? { map: '[a]' } : null,
    ),
  );
  return { args, container: target, expectedSeconds: total };
}

/** Name of the job's output file, by the last operation. */
export function outputName(op: FfmpegOperation['op'], container: Container): string {
  const stem: Record<FfmpegOperation['op'], string> = {
    transcode: 'transcoded',
    resize: 'resized',
    trim: 'trimmed',
    concat: 'joined',
    extract_audio: 'audio',
    thumbnail: 'thumbnail',
    gif: 'animation',
  };
  return `${stem[op]}.${container}`;
}
