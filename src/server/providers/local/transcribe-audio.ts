import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { Transcript } from '../../../contract/transcript.ts';
import type { PocketsphinxSetup } from '../../domain/catalog/pocketsphinx-setup.ts';
import { runFfmpeg } from './ffmpeg-binary.ts';
import { parsePocketsphinx } from './transcribe-parse.ts';
import {
  POCKETSPHINX_BYTES_PER_SECOND,
  POCKETSPHINX_SAMPLE_RATE,
  runPocketsphinx,
} from './transcribe-pocketsphinx.ts';

export interface TranscribeMediaOptions {
  ffmpeg: string;
  pocketsphinx: PocketsphinxSetup;
  /** A readable media file with sound (probed already). */
  file: string;
  /** Where the converted audio goes (a job's temp dir). */
  workDir: string;
  /** The media's length when known: the conversion's progress is measured against it. */
  durationSeconds: number | null;
  /** Only this many seconds from the start are transcribed. */
  maxSeconds?: number;
  signal?: AbortSignal;
  /** Fraction 0..1 of the whole transcription, with a message for people. */
  onProgress?: (fraction: number, message: string) => void;
}

/** Share of the progress for converting the sound; recognising takes the rest. */
const CONVERTING = 0.15;

/**
 * English speech to timed segments: the first sound stream of `file` becomes 16 kHz mono raw audio
 * (ffmpeg), which PocketSphinx recognises.
 */
export async function transcribeMedia(options: TranscribeMediaOptions): Promise<Transcript> {
  const { signal, onProgress } = options;
  const raw = path.join(options.workDir, 'speech.s16le');
  const expected =
    options.durationSeconds === null
      ? null
      : Math.min(options.durationSeconds, options.maxSeconds ?? Number.POSITIVE_INFINITY);
  onProgress?.(0, 'Converting the sound for speech recognition');
  await runFfmpeg(
    options.ffmpeg,
    [
      ...['-protocol_whitelist', 'file', '-i', options.file],
      ...['-map', '0:a:0', '-vn', '-sn', '-dn'],
      ...(options.maxSeconds === undefined ? [] : ['-t', String(options.maxSeconds)]),
      ...['-ac', '1', '-ar', String(POCKETSPHINX_SAMPLE_RATE), '-f', 's16le', raw],
    ],
    {
      signal,
      expectedSeconds: expected,
      onProgress: (fraction) =>
        onProgress?.(CONVERTING * fraction, 'Converting the sound for speech recognition'),
    },
  );
  const seconds = (await stat(raw)).size / POCKETSPHINX_BYTES_PER_SECOND;
  const stdout = await runPocketsphinx(options.pocketsphinx, raw, {
    signal,
    onProgress: (done) =>
      onProgress?.(
        CONVERTING + (1 - CONVERTING) * (seconds > 0 ? Math.min(1, done / seconds) : 1),
        `Recognising speech: ${Math.min(done, seconds).toFixed(0)} s of ${seconds.toFixed(0)} s`,
      ),
  });
  const segments = parsePocketsphinx(stdout);
  return {
    text: segments.map((segment) => segment.text).join(' '),
    language: 'en',
    duration_seconds: Number(seconds.toFixed(3)),
    segments,
  };
}
