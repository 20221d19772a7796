/**
 * OpenAI's built-in text-to-speech voices (`voice` of `POST /audio/speech`), as its API reference and
 * text-to-speech guide list them. The older `tts-1` / `tts-1-hd` models take only the nine original
 * voices (the API answers 400 for `ballad`, `verse`, `marin` and `cedar` there); `gpt-4o-mini-tts`
 * takes all thirteen, and the guide recommends `marin` and `cedar` for the best quality. OpenAI
 * publishes no gender or accent for its voices, so none is given here.
 */
export interface OpenAIVoice {
  /** The value of `voice` in the request (OpenAI's voice ids are their lowercase names). */
  id: string;
  name: string;
  /** Speech models that take this voice. */
  models: readonly string[];
  /** Recommended by OpenAI for the best quality. */
  recommended?: boolean;
}

const ALL_TTS = ['tts-1', 'tts-1-hd', 'gpt-4o-mini-tts'] as const;
const GPT_TTS_ONLY = ['gpt-4o-mini-tts'] as const;

export const OPENAI_VOICES: readonly OpenAIVoice[] = [
  { id: 'alloy', name: 'Alloy', models: ALL_TTS },
  { id: 'ash', name: 'Ash', models: ALL_TTS },
  { id: 'ballad', name: 'Ballad', models: GPT_TTS_ONLY },
  { id: 'coral', name: 'Coral', models: ALL_TTS },
  { id: 'echo', name: 'Echo', models: ALL_TTS },
  { id: 'fable', name: 'Fable', models: ALL_TTS },
  { id: 'nova', name: 'Nova', models: ALL_TTS },
  { id: 'onyx', name: 'Onyx', models: ALL_TTS },
  { id: 'sage', name: 'Sage', models: ALL_TTS },
  { id: 'shimmer', name: 'Shimmer', models: ALL_TTS },
  { id: 'verse', name: 'Verse', models: GPT_TTS_ONLY },
  { id: 'marin', name: 'Marin', models: GPT_TTS_ONLY, recommended: true },
  { id: 'cedar', name: 'Cedar', models: GPT_TTS_ONLY, recommended: true },
];

/** The voice used when a request names none. */
export const OPENAI_DEFAULT_VOICE = 'alloy';
