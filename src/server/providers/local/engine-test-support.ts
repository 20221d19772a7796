import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { MODELS } from '../../domain/catalog/models.ts';
import type { RunContext, RunInput } from '../../domain/jobs/provider.ts';
import { testFfmpeg, testFfprobe } from './ffmpeg-test-media.ts';

/** Test support for the video engines and the renderer: a real RunContext, probing with ffprobe, frames. */

const run = promisify(execFile);

/** The catalog model and offer of a local providerModelId, as the provider hands them to engines. */
export function inputFor(providerModelId: string, body: Record<string, unknown>): RunInput {
  const model = MODELS.find((m) =>
    m.offers.some((o) => o.provider === 'local' && o.providerModelId === providerModelId),
  );
  const offer = model?.offers.find((o) => o.providerModelId === providerModelId);
  if (!model || !offer) throw new Error(`no local model with providerModelId ${providerModelId}`);
  return { model, offer, body };
}

/** A real RunContext: `https://in.test/<path>` reads that file from disk; `reads` lists what was read. */
export function contextOf(signal = new AbortController().signal) {
  const progress: Array<[number, string]> = [];
  const reads: string[] = [];
  const context: RunContext = {
    signal,
    progress: (fraction, message) => progress.push([fraction, message]),
    readInput: async (url) => {
      reads.push(url);
      return { body: await readFile(new URL(url).pathname), contentType: 'application/octet-stream' };
    },
  };
  return { context, progress, reads };
}

export const urlOf = (file: string) => `https://in.test${file}`;
export const filesOf = (...files: string[]) => files.map((file) => ({ url: urlOf(file) }));

export async function failure(promise: Promise<unknown>): Promise<Error> {
  return promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (error: Error) => error,
  );
}

export interface ProbedStream {
  codec_type: 'video' | 'audio';
  codec_name: string;
  width?: number;
  height?: number;
  pix_fmt?: string;
  r_frame_rate?: string;
  sample_rate?: string;
  duration?: string;
  nb_frames?: string;
}

export interface Probed {
  seconds: number;
  video: ProbedStream | undefined;
  audio: ProbedStream | undefined;
}

/** ffprobe's view of a file (a second opinion: the engines probe with ffmpeg itself). */
export async function probe(file: string): Promise<Probed> {
  const { stdout } = await run(testFfprobe(), [
    ...['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file],
  ]);
  const parsed = JSON.parse(stdout) as { format: { duration: string }; streams: ProbedStream[] };
  return {
    seconds: Number(parsed.format.duration),
    video: parsed.streams.find((s) => s.codec_type === 'video'),
    audio: parsed.streams.find((s) => s.codec_type === 'audio'),
  };
}

/** Writes an engine's output next to the test media and probes it. */
export async function probeOutput(
  dir: string,
  name: string,
  data: Buffer,
): Promise<Probed & { file: string }> {
  const file = path.join(dir, `out-${Date.now()}-${Math.random().toString(36).slice(2)}-${name}`);
  await writeFile(file, data);
  return { ...(await probe(file)), file };
}

/** MD5 of each decoded frame: equal lists mean the same pictures whatever the container bytes. */
export async function frameHashes(file: string): Promise<string[]> {
  const { stdout } = await run(testFfmpeg(), [
    '-v',
    'error',
    '-i',
    file,
    '-map',
    '0:v:0',
    '-f',
    'framemd5',
    '-',
  ]);
  return stdout
    .split('\n')
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => line.split(',').at(-1)!.trim());
}

/** The mean RGB of the frame at `seconds`. */
export async function frameColour(
  file: string,
  seconds: number,
): Promise<{ r: number; g: number; b: number }> {
  const png = await frameAt(file, seconds);
  const { channels } = await sharp(png).stats();
  return { r: channels[0]!.mean, g: channels[1]!.mean, b: channels[2]!.mean };
}

/** The frame at `seconds` as a PNG. */
export async function frameAt(file: string, seconds: number): Promise<Buffer> {
  const { stdout } = await run(
    testFfmpeg(),
    [
      '-v',
      'error',
      '-ss',
      seconds.toFixed(3),
      '-i',
      file,
      '-frames:v',
      '1',
      '-f',
      'image2pipe',
      '-c:v',
      'png',
      '-',
    ],
    { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 },
  );
  return stdout;
}

/** The loudness (mean volume, dB) of a file's sound between two times; -91 is digital silence. */
export async function meanVolume(file: string, from: number, to: number): Promise<number> {
  const { stderr } = await run(testFfmpeg(), [
    ...['-hide_banner', '-nostats', '-i', file, '-vn', '-af'],
    `atrim=start=${from}:end=${to},volumedetect`,
    ...['-f', 'null', '-'],
  ]);
  const match = /mean_volume: (-?[\d.]+|-inf) dB/.exec(stderr);
  if (!match) throw new Error(`no volume in ${stderr}`);
  return match[1] === '-inf' ? -91 : Number(match[1]);
}

/** A solid colour image (PNG unless `format` says otherwise). */
export async function solidImage(
  file: string,
  width: number,
  height: number,
  colour: { r: number; g: number; b: number },
  format: 'png' | 'jpeg' = 'png',
): Promise<string> {
  const image = sharp({ create: { width, height, channels: 3, background: colour } });
  await (format === 'png' ? image.png() : image.jpeg()).toFile(file);
  return file;
}

/** Pids of live processes whose command line mentions `text` (Linux /proc). */
export function processesUsing(text: string): string[] {
  if (!existsSync('/proc')) return [];
  return readdirSync('/proc')
    .filter((pid) => /^\d+$/.test(pid))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(text);
      } catch {
        return false;
      }
    });
}
