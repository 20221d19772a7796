import type { PresetRecord } from './preset-record.ts';
import { SPEECH_MODELS, SPEECH_VOICES, voiceDisplayName } from './speech-voices.ts';

/** Every voice of the local speech engines (flite, espeak-ng) as a `voice` preset of namespace `local`. */
export const LOCAL_VOICE_PRESETS: readonly PresetRecord[] = Object.values(SPEECH_VOICES)
  .flat()
  .map((v) => ({
    id: v.presetId,
    kind: 'provider_value',
    type: 'voice',
    namespace: 'local',
    name: voiceDisplayName(v),
    description: v.description,
    preview: { kind: 'local-speech', engine: v.engine, voice: v.name, language: v.language },
    metadata: {
      engine: v.engine,
      model: SPEECH_MODELS[v.engine],
      voice: v.name,
      language: v.language,
      ...(v.gender ? { gender: v.gender } : {}),
      ...(v.accent ? { accent: v.accent } : {}),
    },
    status: 'active',
    tools: { speech: { model: SPEECH_MODELS[v.engine], voice: v.presetId } },
  }));
