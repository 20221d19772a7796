import type { Config } from '../../config.ts';
import { OPENAI, openAIApi } from './openai-api.ts';
import { IMAGE_MODELS, requestedImages, submitImages } from './openai-images.ts';
import { SPEECH_MODELS, submitSpeech } from './openai-speech.ts';
import { submitTranscription, TRANSCRIPTION_MODELS } from './openai-transcription.ts';
import { cancelVideo, pollVideo, requestedSeconds, submitVideo, VIDEO_MODELS } from './openai-videos.ts';
import type { RemoteAdapter } from './remote-provider.ts';
import { FinishedJobs } from './sync-jobs.ts';

/**
 * OpenAI (`Authorization: Bearer <OPENAI_API_KEY>`, base `OPENAI_BASE_URL`). Documented endpoints used:
 * - `POST /images/generations`, `POST /images/edits` (gpt-image-1, dall-e-3, dall-e-2): openai-images.ts
 * - `POST /videos`, `GET /videos/{id}`, `GET /videos/{id}/content`, `DELETE /videos/{id}` (sora-2,
 *   sora-2-pro): openai-videos.ts
 * - `POST /audio/speech` (tts-1, tts-1-hd, gpt-4o-mini-tts): openai-speech.ts
 * - `POST /audio/transcriptions` (whisper-1, gpt-4o-transcribe, gpt-4o-mini-transcribe):
 *   openai-transcription.ts
 * Errors are OpenAI's `{error: {message, type, code}}`; 429s are retried after `retry-after` or
 * `x-ratelimit-reset-*` (provider-http.ts), except `insufficient_quota` (openai-api.ts).
 *
 * Everything but video answers synchronously: `submit` returns the finished job under a made-up id
 * (`openai-img-…`, `openai-speech-…`, `openai-stt-…`) that `poll` answers from memory, and cancelling
 * such a call is aborting its request (`context.signal`).
 */
export function createOpenAIAdapter(
  config: Pick<Config, 'OPENAI_API_KEY' | 'OPENAI_BASE_URL'>,
): RemoteAdapter {
  const api = openAIApi(config.OPENAI_BASE_URL, config.OPENAI_API_KEY);
  const finished = new FinishedJobs(OPENAI);
  const is = (models: readonly string[], id: string) => models.includes(id);

  return {
    id: 'openai',
    keyVariable: 'OPENAI_API_KEY',
    key: config.OPENAI_API_KEY,

    supports: (id) =>
      is(IMAGE_MODELS, id) || is(VIDEO_MODELS, id) || is(SPEECH_MODELS, id) || is(TRANSCRIPTION_MODELS, id),

    async submit(input, context) {
      const model = input.offer.providerModelId;
      if (is(VIDEO_MODELS, model)) return submitVideo(api, input, context);
      if (is(IMAGE_MODELS, model)) return finished.remember(await submitImages(api, input, context));
      if (is(SPEECH_MODELS, model)) return finished.remember(await submitSpeech(api, input, context));
      if (is(TRANSCRIPTION_MODELS, model))
        return finished.remember(await submitTranscription(api, input, context));
      throw new Error(`The OpenAI adapter cannot call ${model}.`);
    },

    async poll(input, signal) {
      if (is(VIDEO_MODELS, input.offer.providerModelId)) return pollVideo(api, input, signal);
      return finished.recall(input.providerJobId);
    },

    async cancel(input) {
      if (is(VIDEO_MODELS, input.offer.providerModelId)) await cancelVideo(api, input);
    },

    estimateUnits(input) {
      const model = input.offer.providerModelId;
      if (is(IMAGE_MODELS, model)) return requestedImages(input);
      if (is(VIDEO_MODELS, model)) return requestedSeconds(input);
      return null;
    },
  };
}
