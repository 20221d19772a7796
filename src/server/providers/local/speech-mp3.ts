import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { runFfmpeg } from './ffmpeg-binary.ts';

export interface Mp3Options {
  /** The ffmpeg binary. */
  binary: string;
  /** For example `64k`. */
  bitrate: string;
  /** Seconds of audio in the WAV (for progress). */
  seconds: number;
  /** LAME's speed/quality trade-off, 0 (best, slowest) to 9; LAME's default (3) when absent. */
  compressionLevel?: number;
  /** Resamples to this rate first (MP3 players handle 8 kHz, MPEG 2.5, badly). */
  sampleRate?: number;
  signal?: AbortSignal;
  /** Fraction 0..1 of the encoding. */
  onProgress?: (fraction: number) => void;
}

/** MP3 (LAME, constant bitrate) of a WAV file, with the bundled ffmpeg; shared by speech and music. */
export async function wavToMp3(wav: Buffer, options: Mp3Options): Promise<Buffer> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'local-audio-'));
  try {
    const input = path.join(dir, 'in.wav');
    const output = path.join(dir, 'out.mp3');
    await writeFile(input, wav);
    const resample = options.sampleRate ? ['-ar', String(options.sampleRate)] : [];
    const level =
      options.compressionLevel === undefined ? [] : ['-compression_level', String(options.compressionLevel)];
    await runFfmpeg(
      options.binary,
      ['-i', input, ...resample, '-c:a', 'libmp3lame', '-b:a', options.bitrate, ...level, output],
      { signal: options.signal, expectedSeconds: options.seconds, onProgress: options.onProgress },
    );
    return await readFile(output);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
