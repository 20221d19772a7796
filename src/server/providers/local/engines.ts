import type { Config } from '../../config.ts';
import { ffmpegPath } from './ffmpeg-binary.ts';
import { createFfmpegJob } from './ffmpeg-engine.ts';
import { editJob, sketchJob, upscaleJob } from './image-jobs.ts';
import type { LocalEngine } from './local-provider.ts';

/**
 * The offline engines built into this server, keyed by the catalog offer's providerModelId. Only models
 * listed here show as available for the local provider.
 */
export function createLocalEngines(config: Pick<Config, 'FFMPEG_PATH'>): Map<string, LocalEngine> {
  let binary: string | undefined;
  return new Map<string, LocalEngine>([
    ['sketch', sketchJob],
    ['edit', editJob],
    ['upscale', upscaleJob],
    ['ffmpeg', createFfmpegJob({ binary: () => (binary ??= ffmpegPath(config)) })],
  ]);
}
