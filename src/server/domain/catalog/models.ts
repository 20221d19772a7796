import { AUDIO_MODELS } from './models/audio.ts';
import { IMAGE_MODELS } from './models/image.ts';
import { LOCAL_MODELS } from './models/local.ts';
import { VIDEO_MODELS } from './models/video.ts';
import type { ModelDefinition } from './types.ts';

/** The whole catalog: the offline engines first, then the models of external providers, by tool. */
export const MODELS: readonly ModelDefinition[] = [
  ...LOCAL_MODELS,
  ...IMAGE_MODELS,
  ...VIDEO_MODELS,
  ...AUDIO_MODELS,
];
