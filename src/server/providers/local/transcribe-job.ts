import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  POCKETSPHINX_INSTALL_HINT,
  type PocketsphinxSetup,
} from '../../domain/catalog/pocketsphinx-setup.ts';
import type { RunResult } from '../../domain/jobs/provider.ts';
import { checkAborted, EngineInputError } from './engine-run.ts';
import { probeMedia } from './ffmpeg-probe.ts';
import type { LocalEngine } from './local-provider.ts';
import { transcribeMedia } from './transcribe-audio.ts';
import { toWebVtt } from './transcribe-vtt.ts';

export interface TranscribeJobOptions {
  /** The ffmpeg binary (resolved on first use): see ffmpegPath. */
  ffmpeg: () => string;
  /** The recogniser, or null when it is not installed: see findPocketsphinx. */
  pocketsphinx: () => PocketsphinxSetup | null;
  /** Where each job's temp dir is made (default the system's). */
  tmpRoot?: string;
}

/** English only: the installed model is US English. */
export function isEnglish(language: string): boolean {
  return /^en(-|$)/i.test(language);
}

const READING = 0.05;
const PROBING = 0.08;
const WORK_END = 0.97;

/**
 * The local `pocketsphinx` engine (`POST /transcription`): reads `audio_url` (any audio or video ffmpeg
 * reads), recognises English speech offline and returns the transcript inline in outputs[0] (text and
 * timed segments with words), plus the same as a WebVTT file in outputs[1].
 */
export function createTranscribeJob(options: TranscribeJobOptions): LocalEngine {
  return async (input, context): Promise<RunResult> => {
    const { audio_url: url, language = 'en' } = input.body;
    if (typeof url !== 'string' || !url) throw new EngineInputError('audio_url is required.');
    if (typeof language !== 'string' || !isEnglish(language)) {
      throw new EngineInputError(
        `${input.model.id} recognises English only (language "en" or "en-US"...), not "${String(language)}". ` +
          'Pick another transcription model for other languages.',
      );
    }
    const pocketsphinx = options.pocketsphinx();
    if (!pocketsphinx)
      throw new Error(`PocketSphinx is not installed on this server. ${POCKETSPHINX_INSTALL_HINT}`);
    const ffmpeg = options.ffmpeg();
    checkAborted(context.signal);
    const dir = await mkdtemp(path.join(options.tmpRoot ?? os.tmpdir(), 'transcribe-job-'));
    try {
      context.progress(0, 'Reading the audio');
      const { body } = await context.readInput(url);
      checkAborted(context.signal);
      const file = path.join(dir, 'input');
      await writeFile(file, body);
      context.progress(READING, 'Reading the audio');
      const info = await probeMedia(ffmpeg, file, 'audio_url', context.signal);
      if (!info.audio) throw new EngineInputError('audio_url has no sound to transcribe.');
      context.progress(PROBING, 'Converting the sound for speech recognition');
      const transcript = await transcribeMedia({
        ffmpeg,
        pocketsphinx,
        file,
        workDir: dir,
        durationSeconds: info.durationSeconds,
        signal: context.signal,
        onProgress: (fraction, message) =>
          context.progress(PROBING + (WORK_END - PROBING) * fraction, message),
      });
      context.progress(WORK_END, 'Done');
      return {
        outputs: [
          { kind: 'inline', mediaType: 'application/json', data: transcript },
          {
            kind: 'file',
            data: Buffer.from(toWebVtt(transcript.segments)),
            mediaType: 'text/vtt',
            name: 'transcript.vtt',
          },
        ],
        billedUnits: { minutes: transcript.duration_seconds / 60 },
        providerStatus: 'succeeded',
      };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  };
}
