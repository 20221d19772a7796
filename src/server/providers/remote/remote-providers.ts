import type { Config } from '../../config.ts';
import type { Provider } from '../../domain/jobs/provider.ts';
import { createElevenLabsAdapter } from './elevenlabs-adapter.ts';
import { createFalAdapter } from './fal-adapter.ts';
import { createOpenAIAdapter } from './openai-adapter.ts';
import { createRemoteProvider } from './remote-provider.ts';
import { createReplicateAdapter } from './replicate-adapter.ts';
import { withVoicePresets } from './voice-presets.ts';

/**
 * The external providers, each enabled by its key in the configuration. Providers without a key are
 * still listed, so the catalog can say what would enable them.
 */
export function createRemoteProviders(config: Config): Provider[] {
  return [
    createFalAdapter(config),
    createReplicateAdapter(config),
    createOpenAIAdapter(config),
    createElevenLabsAdapter(config),
  ].map((adapter) => createRemoteProvider(withVoicePresets(adapter)));
}
