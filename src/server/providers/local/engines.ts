import type { Config } from '../../config.ts';
import { findPocketsphinx } from '../../domain/catalog/pocketsphinx-setup.ts';
import { createAnalyzeJob } from './analyze-job.ts';
import { ffmpegPath, ffprobePath } from './ffmpeg-binary.ts';
import { createFfmpegJob } from './ffmpeg-engine.ts';
import { editJob, sketchJob, upscaleJob } from './image-jobs.ts';
import type { LocalEngine } from './local-provider.ts';
import { createMusicJob } from './music-engine.ts';
import { createRenderJob } from './render-engine.ts';
import { createSpeechJob } from './speech-engine.ts';
import { createTranscribeJob } from './transcribe-job.ts';
import { createAudioReplaceJob } from './video-audio-replace.ts';
import { createVideoConcatJob } from './video-concat.ts';
import { createVideoTrimJob, createVideoUpscaleJob } from './video-edits.ts';
import { createMotionI2vJob, createMotionJob } from './video-motion.ts';

/**
 * The offline engines built into this server, keyed by the catalog offer's providerModelId. Only models
 * listed here show as available for the local provider.
 */
export function createLocalEngines(
  config: Pick<Config, 'FFMPEG_PATH' | 'FFPROBE_PATH'>,
): Map<string, LocalEngine> {
  let binary: string | undefined;
  let probe: string | undefined;
  return new Map<string, LocalEngine>([
    ['sketch', sketchJob],
    ['edit', editJob],
    ['upscale', upscaleJob],
    ['ffmpeg', createFfmpegJob({ binary: () => (binary ??= ffmpegPath(config)) })],
    ['motion', createMotionJob({ binary: () => (binary ??= ffmpegPath(config)) })],
    ['motion-i2v', createMotionI2vJob({ binary: () => (binary ??= ffmpegPath(config)) })],
    ['video-upscale', createVideoUpscaleJob({ binary: () => (binary ??= ffmpegPath(config)) })],
    ['video-trim', createVideoTrimJob({ binary: () => (binary ??= ffmpegPath(config)) })],
    ['video-concat', createVideoConcatJob({ binary: () => (binary ??= ffmpegPath(config)) })],
    ['audio-replace', createAudioReplaceJob({ binary: () => (binary ??= ffmpegPath(config)) })],
    ['render', createRenderJob({ binary: () => (binary ??= ffmpegPath(config)) })],
    ['flite', createSpeechJob('flite', { binary: () => (binary ??= ffmpegPath(config)) })],
    ['espeak-ng', createSpeechJob('espeak-ng', { binary: () => (binary ??= ffmpegPath(config)) })],
    ['procedural-music', createMusicJob({ binary: () => (binary ??= ffmpegPath(config)) })],
    [
      'pocketsphinx',
      createTranscribeJob({
        ffmpeg: () => (binary ??= ffmpegPath(config)),
        pocketsphinx: () => findPocketsphinx(),
      }),
    ],
    [
      'video-analyze',
      createAnalyzeJob({
        ffmpeg: () => (binary ??= ffmpegPath(config)),
        ffprobe: () => (probe ??= ffprobePath(config)),
        pocketsphinx: () => findPocketsphinx(),
      }),
    ],
  ]);
}
