import { ELEVENLABS_PREMADE_VOICES } from './elevenlabs-voices.ts';
import { OPENAI_VOICES } from './openai-voices.ts';
import { presetId } from './preset-id.ts';
import type { PresetRecord } from './preset-record.ts';

/*
 * The built-in voices of the external speech providers as `voice` presets, namespaced by provider. A
 * preset's fragment names a model of that provider and the preset id; the provider's adapter turns the id
 * back into its own voice value (voice-presets.ts). A voice's sample is its sound, never a picture:
 * - ElevenLabs publishes one per voice (`preview_url` of `GET /v1/voices`): taken from that listing when
 *   ElevenLabs is enabled here (published-voice-samples.ts);
 * - OpenAI publishes none (its API has no voice listing), so its voices have no sample on this server
 *   (docs/providers.md says why none is made through OpenAI).
 */

const OPENAI_PRESETS: PresetRecord[] = OPENAI_VOICES.map((voice) => {
  const id = presetId('openai', 'voice', voice.id);
  const model = voice.models.includes('tts-1') ? 'tts-1' : 'gpt-4o-mini-tts';
  return {
    id,
    kind: 'provider_value',
    type: 'voice',
    namespace: 'openai',
    name: voice.name,
    description: `OpenAI's ${voice.name} voice${voice.recommended ? ', recommended by OpenAI for the best quality' : ''}. Works with ${voice.models.join(', ')}.`,
    preview: { kind: 'none' },
    metadata: { provider: 'openai', voice: voice.id, models: [...voice.models], language: 'multilingual' },
    status: 'active',
    tools: { speech: { model, voice: id } },
  };
});

const ELEVENLABS_PRESETS: PresetRecord[] = ELEVENLABS_PREMADE_VOICES.map((voice) => {
  const id = presetId('elevenlabs', 'voice', voice.id);
  return {
    id,
    kind: 'provider_value',
    type: 'voice',
    namespace: 'elevenlabs',
    name: voice.name,
    description: `ElevenLabs' ${voice.name}: ${voice.description}, ${voice.accent} accent${voice.useCase ? `, for ${voice.useCase}` : ''}.${voice.legacy ? ' An earlier default voice, kept for existing integrations.' : ''}`,
    preview: { kind: 'provider-listing', provider: 'elevenlabs', voice: voice.id },
    metadata: {
      provider: 'elevenlabs',
      voice: voice.id,
      gender: voice.gender,
      accent: voice.accent,
      ...(voice.age ? { age: voice.age } : {}),
      ...(voice.useCase ? { use_case: voice.useCase } : {}),
    },
    status: voice.legacy ? 'deprecated' : 'active',
    tools: { speech: { model: 'eleven-multilingual-v2', voice: id } },
  };
});

export const PROVIDER_VOICE_PRESETS: readonly PresetRecord[] = [...OPENAI_PRESETS, ...ELEVENLABS_PRESETS];
