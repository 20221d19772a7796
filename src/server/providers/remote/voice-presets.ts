import type { RunInput } from '../../domain/jobs/provider.ts';
import { ProviderError } from '../../domain/jobs/provider-error.ts';
import { PRESETS } from '../../domain/presets/preset-catalog.ts';
import type { RemoteAdapter } from './remote-provider.ts';

const PRESET_ID = /^preset_[0-9a-f]{12}$/;

/** The body with a `voice` preset id of this provider replaced by the provider's own voice value. */
export function withProviderVoice(provider: string, input: RunInput): RunInput {
  const voice = input.body.voice;
  if (typeof voice !== 'string' || !PRESET_ID.test(voice)) return input;
  const preset = PRESETS.get(voice);
  if (preset?.type !== 'voice') {
    throw new ProviderError('provider_rejected', `There is no voice preset ${voice}.`);
  }
  const value = preset.metadata.voice;
  if (preset.namespace !== provider || typeof value !== 'string') {
    throw new ProviderError(
      'provider_rejected',
      `Voice preset ${voice} (${preset.name}) is a ${preset.namespace} voice; ${input.model.id} runs on ${provider}.`,
    );
  }
  return { ...input, body: { ...input.body, voice: value } };
}

/** An adapter that understands voice presets: every call sees the provider's own voice value. */
export function withVoicePresets(adapter: RemoteAdapter): RemoteAdapter {
  const resolve = (input: RunInput) => withProviderVoice(adapter.id, input);
  return {
    ...adapter,
    supports: (id) => adapter.supports(id),
    submit: (input, context) => adapter.submit(resolve(input), context),
    poll: (input, signal) => adapter.poll({ ...resolve(input), providerJobId: input.providerJobId }, signal),
    cancel: (input) => adapter.cancel({ ...resolve(input), providerJobId: input.providerJobId }),
    estimateUnits: adapter.estimateUnits ? (input) => adapter.estimateUnits!(resolve(input)) : undefined,
    stateFromWebhook: adapter.stateFromWebhook
      ? (input, delivery) =>
          adapter.stateFromWebhook!({ ...resolve(input), providerJobId: input.providerJobId }, delivery)
      : undefined,
    findSubmitted: adapter.findSubmitted
      ? (input, signal) => adapter.findSubmitted!({ ...input, ...resolve(input) }, signal)
      : undefined,
  };
}
