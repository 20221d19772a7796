import { editJob, sketchJob, upscaleJob } from './image-jobs.ts';
import type { LocalEngine } from './local-provider.ts';

/**
 * The offline engines built into this server, keyed by the catalog offer's providerModelId. Only models
 * listed here show as available for the local provider.
 */
export function createLocalEngines(): Map<string, LocalEngine> {
  return new Map<string, LocalEngine>([
    ['sketch', sketchJob],
    ['edit', editJob],
    ['upscale', upscaleJob],
  ]);
}
