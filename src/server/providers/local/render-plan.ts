import type { z } from 'zod';
import type { RenderRequest } from '../../../contract/generation.ts';
import type { ResizePlan } from './ffmpeg-operations.ts';
import { AAC, H264, inputArgs, MP4_TAIL, secondsArg } from './video-job.ts';

/*
 * The ffmpeg run of a render, from its request and its layers prepared on disk. Pure (no process here),
 * so the timeline maths can be tested alone. The canvas is a `color` source; every visual layer is
 * overlaid in order (later on top), visible on [start, end); sounds are delayed to their start, padded
 * to the composition's length and mixed.
 */

export type RenderFormat = z.output<typeof RenderRequest>['format'];

/** One layer, ready for ffmpeg: stills are PNGs already fitted (images) or drawn (text). */
export type PreparedLayer =
  | { kind: 'still'; file: string; x: number; y: number; start: number; end: number }
  | {
      kind: 'video';
      file: string;
      x: number;
      y: number;
      /** The picture scaled (and cropped for cover) into its box; x, y already centre a contained one. */
      resize: ResizePlan;
      start: number;
      end: number;
      trimStart: number;
      volume: number;
      /** Whether its sound is mixed (it has sound and a volume above 0). */
      sound: boolean;
    }
  | { kind: 'audio'; file: string; start: number; end: number; trimStart: number; volume: number };

export interface RenderCanvas {
  width: number;
  height: number;
  fps: number;
  duration: number;
  background: string;
  format: RenderFormat;
}

export const STILL_FORMATS: ReadonlySet<RenderFormat> = new Set(['png', 'jpg']);

const RATE = 48_000;
const VP9 = ['-c:v', 'libvpx-vp9', '-deadline', 'realtime', '-cpu-used', '8', '-b:v', '0', '-crf', '32'];
const OPUS = ['-c:a', 'libopus', '-b:a', '128k'];

/** Half-open [start, end): a layer ending at 2 s is gone from the frame at 2 s. */
const during = (start: number, end: number) => `'gte(t,${secondsArg(start)})*lt(t,${secondsArg(end)})'`;

/** The ffmpeg arguments (after the common ones) writing the render to `output`. */
export function planRender(canvas: RenderCanvas, layers: readonly PreparedLayer[], output: string): string[] {
  const still = STILL_FORMATS.has(canvas.format);
  // Pictures are composed in RGB for stills and GIF (no chroma loss), in 4:2:0 for video codecs.
  const rgb = still || canvas.format === 'gif';
  const duration = secondsArg(canvas.duration);
  const inputs: string[] = [];
  const chains = [
    `color=c=0x${canvas.background.slice(1)}:s=${canvas.width}x${canvas.height}:r=${canvas.fps}:d=${duration},` +
      `format=${rgb ? 'rgb24' : 'yuv420p'}[base]`,
  ];
  const audible = canvas.format === 'mp4' || canvas.format === 'webm';
  const sounds: string[] = [];
  let picture = '[base]';
  const overlay = (source: string, x: number, y: number, start: number, end: number, eof: string) => {
    const next = `[v${chains.length}]`;
    chains.push(
      `${picture}${source}overlay=x=${x}:y=${y}:format=${rgb ? 'rgb' : 'yuv420'}:eof_action=${eof}:enable=${during(start, end)}${next}`,
    );
    picture = next;
  };
  const sound = (index: number, layer: { start: number; volume: number }) => {
    const delay = Math.round(layer.start * 1000);
    const label = `[a${index}]`;
    chains.push(
      `[${index}:a:0]asetpts=PTS-STARTPTS,aformat=sample_fmts=fltp:sample_rates=${RATE}:channel_layouts=stereo,` +
        `volume=${layer.volume},adelay=${delay}|${delay},apad,atrim=duration=${duration}${label}`,
    );
    sounds.push(label);
  };

  layers.forEach((layer, index) => {
    const length = secondsArg(layer.end - layer.start);
    switch (layer.kind) {
      case 'still':
        // One picture: overlay repeats it (eof_action=repeat) while the layer is enabled.
        inputs.push(...inputArgs(layer.file));
        overlay(`[${index}:v:0]`, layer.x, layer.y, layer.start, layer.end, 'repeat');
        return;
      case 'video': {
        const seek = layer.trimStart > 0 ? ['-ss', secondsArg(layer.trimStart)] : [];
        inputs.push(...inputArgs(layer.file, [...seek, '-t', length]));
        const fitted = `[f${index}]`;
        chains.push(
          `[${index}:v:0]${[...layer.resize.filters, `setpts=PTS-STARTPTS+${secondsArg(layer.start)}/TB`].join(',')}${fitted}`,
        );
        // The clip shows once: when it ends before its layer does, the layer is simply gone.
        overlay(fitted, layer.x, layer.y, layer.start, layer.end, 'pass');
        if (layer.sound && audible) sound(index, layer);
        return;
      }
      case 'audio': {
        const seek = layer.trimStart > 0 ? ['-ss', secondsArg(layer.trimStart)] : [];
        inputs.push(...inputArgs(layer.file, [...seek, '-t', length]));
        if (audible) sound(index, layer);
        return;
      }
    }
  });

  const audio = sounds.length > 0;
  if (audio) {
    // amix divides every input by their count (all last the whole render here): the volume puts it back.
    chains.push(
      sounds.length === 1
        ? `${sounds[0]}anull[aout]`
        : `${sounds.join('')}amix=inputs=${sounds.length}:duration=longest:dropout_transition=0,volume=${sounds.length}[aout]`,
    );
  }
  const finish: Record<RenderFormat, { filter: string; args: string[] }> = {
    mp4: { filter: 'format=yuv420p', args: [...H264, ...(audio ? AAC : [])] },
    webm: { filter: 'format=yuv420p', args: [...VP9, ...(audio ? OPUS : [])] },
    gif: { filter: 'split[g1][g2];[g1]palettegen[p];[g2][p]paletteuse', args: ['-c:v', 'gif'] },
    png: { filter: 'format=rgb24', args: ['-frames:v', '1', '-c:v', 'png'] },
    jpg: { filter: 'format=yuvj444p', args: ['-frames:v', '1', '-c:v', 'mjpeg', '-q:v', '2'] },
  };
  const { filter, args } = finish[canvas.format];
  chains.push(`${picture}${filter}[vout]`);
  const timing = still ? [] : ['-t', duration];
  const tail = canvas.format === 'mp4' ? MP4_TAIL : ['-sn', '-dn', '-map_metadata', '-1'];
  return [
    ...inputs,
    '-filter_complex',
    chains.join(';'),
    '-map',
    '[vout]',
    ...(audio ? ['-map', '[aout]'] : ['-an']),
    ...args,
    ...timing,
    ...tail,
    output,
  ];
}
