import type { RunContext, RunInput } from '../../domain/jobs/provider.ts';
import { ProviderError } from '../../domain/jobs/provider-error.ts';
import { OPENAI_DEFAULT_VOICE, OPENAI_VOICES } from '../../domain/presets/openai-voices.ts';
import { OPENAI, type OpenAIApi } from './openai-api.ts';
import type { RemoteJobState, SubmitContext } from './remote-provider.ts';
import { FinishedJobs, finishedState, sendOnce } from './sync-jobs.ts';
import { splitText } from './text-split.ts';
import { providerOptions } from './upload-form.ts';

/**
 * OpenAI speech (synchronous): `POST /audio/speech` `{model, input, voice, response_format, speed,
 * instructions (gpt-4o-mini-tts only)}` answers the audio bytes. `input` is capped at 4096
 * characters: longer text (our contract allows 10000) is split at sentence ends, spoken piece by piece
 * and the MP3s joined end to end. That is sound for MP3 (a stream of self-contained frames plays
 * through; the join may carry an extra header frame, which players skip), so longer text is refused
 * in the other formats, whose containers cannot simply be concatenated.
 */
export const SPEECH_MODELS = ['tts-1', 'tts-1-hd', 'gpt-4o-mini-tts'] as const;

const MAX_INPUT = 4096;

/** Audio of the pieces spoken so far, per run. */
const spokenSoFar = new WeakMap<RunContext, Buffer[]>();
const TIMEOUT_MS = 3 * 60_000;

const MEDIA_TYPES: Record<string, string> = {
  mp3: 'audio/mpeg',
  opus: 'audio/ogg',
  aac: 'audio/aac',
  flac: 'audio/flac',
  wav: 'audio/wav',
  pcm: 'audio/pcm', // raw 24 kHz 16-bit little-endian samples
};

/** The OpenAI voice id for a request's `voice` (names are case-insensitive), checked against the model. */
export function openAIVoice(model: string, voice: unknown): string {
  if (voice === undefined || voice === null || voice === '') return OPENAI_DEFAULT_VOICE;
  const id = String(voice).trim().toLowerCase();
  const known = OPENAI_VOICES.filter((v) => v.models.includes(model));
  if (known.some((v) => v.id === id)) return id;
  throw new ProviderError(
    'provider_rejected',
    `OpenAI ${model} has no voice "${String(voice)}"; choose one of: ${known.map((v) => v.id).join(', ')}.`,
  );
}

export async function submitSpeech(
  api: OpenAIApi,
  input: RunInput,
  context: SubmitContext,
): Promise<RemoteJobState> {
  const model = input.offer.providerModelId;
  const text = String(input.body.text ?? '');
  const voice = openAIVoice(model, input.body.voice);
  const options = providerOptions(input.body, 'openai');
  const format = String(options.response_format ?? 'mp3');
  const mediaType = MEDIA_TYPES[format];
  if (!mediaType)
    throw new ProviderError('provider_rejected', `OpenAI speech has no response_format "${format}".`);
  const pieces = splitText(text, MAX_INPUT);
  if (pieces.length > 1 && format !== 'mp3') {
    throw new ProviderError(
      'provider_rejected',
      `OpenAI speaks at most ${MAX_INPUT} characters per request; longer text is split and joined only as mp3, not ${format}.`,
    );
  }

  // The driver retries a failed submit whole after a failure that created nothing (a 429): pieces already
  // paid for are kept. A piece whose request may have been taken is not sent again (sendOnce).
  const audio = spokenSoFar.get(context) ?? [];
  spokenSoFar.set(context, audio);
  for (const [index, piece] of pieces.entries()) {
    if (index < audio.length) continue;
    if (pieces.length > 1)
      context.progress(
        0.05 + (0.9 * index) / pieces.length,
        `Speaking part ${index + 1} of ${pieces.length}`,
      );
    const bytes = await sendOnce(OPENAI, context, async () => {
      const response = await api.fetch('/audio/speech', {
        method: 'POST',
        headers: { accept: 'application/octet-stream' },
        json: { model, input: piece, voice, response_format: 'mp3', ...options },
        signal: context.signal,
        timeoutMs: TIMEOUT_MS,
      });
      return Buffer.from(await response.arrayBuffer());
    });
    audio.push(bytes);
  }
  const extension = format === 'opus' ? 'ogg' : format;
  return finishedState(
    FinishedJobs.newId('openai-speech'),
    [{ data: Buffer.concat(audio), mediaType, name: `speech.${extension}` }],
    { thousand_characters: text.length / 1000 },
  );
}
