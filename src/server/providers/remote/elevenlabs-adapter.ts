import type { Config } from '../../config.ts';
import { ELEVENLABS, elevenLabsApi } from './elevenlabs-api.ts';
import { MUSIC_MODELS, musicSeconds, submitMusic } from './elevenlabs-music.ts';
import { SPEECH_MODELS, submitSpeech } from './elevenlabs-speech.ts';
import { submitTranscription, TRANSCRIPTION_MODELS } from './elevenlabs-transcription.ts';
import type { RemoteAdapter } from './remote-provider.ts';
import { FinishedJobs } from './sync-jobs.ts';

/**
 * ElevenLabs (`xi-api-key: <ELEVENLABS_API_KEY>`, base `ELEVENLABS_API_URL`). Documented endpoints used:
 * - `POST /text-to-speech/{voice_id}` (eleven_multilingual_v2, eleven_turbo_v2_5, eleven_flash_v2_5,
 *   eleven_v3): elevenlabs-speech.ts
 * - `POST /music` (music_v1): elevenlabs-music.ts
 * - `POST /speech-to-text` (scribe_v1): elevenlabs-transcription.ts
 * All three answer synchronously: `submit` returns the finished job (under ElevenLabs' `request-id`
 * when it sends one), `poll` answers it from memory, and cancelling is aborting the request
 * (`context.signal`); ElevenLabs has no job to cancel.
 */
export function createElevenLabsAdapter(
  config: Pick<Config, 'ELEVENLABS_API_KEY' | 'ELEVENLABS_API_URL'>,
): RemoteAdapter {
  const api = elevenLabsApi(config.ELEVENLABS_API_URL, config.ELEVENLABS_API_KEY);
  const finished = new FinishedJobs(ELEVENLABS);
  const is = (models: readonly string[], id: string) => models.includes(id);

  return {
    id: 'elevenlabs',
    keyVariable: 'ELEVENLABS_API_KEY',
    key: config.ELEVENLABS_API_KEY,

    supports: (id) => is(SPEECH_MODELS, id) || is(MUSIC_MODELS, id) || is(TRANSCRIPTION_MODELS, id),

    async submit(input, context) {
      const model = input.offer.providerModelId;
      if (is(SPEECH_MODELS, model)) return finished.remember(await submitSpeech(api, input, context));
      if (is(MUSIC_MODELS, model)) return finished.remember(await submitMusic(api, input, context));
      if (is(TRANSCRIPTION_MODELS, model))
        return finished.remember(await submitTranscription(api, input, context));
      throw new Error(`The ElevenLabs adapter cannot call ${model}.`);
    },

    poll: async (input) => finished.recall(input.providerJobId),

    // Nothing runs at ElevenLabs once our request is gone: aborting it (context.signal) was the cancel.
    cancel: async () => {},

    estimateUnits(input) {
      return is(MUSIC_MODELS, input.offer.providerModelId) ? musicSeconds(input) : null;
    },
  };
}
