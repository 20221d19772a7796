import type { RunContext, RunInput } from '../../domain/jobs/provider.ts';
import { ProviderError } from '../../domain/jobs/provider-error.ts';
import {
  ELEVENLABS_DEFAULT_VOICE_ID,
  ELEVENLABS_PREMADE_VOICES,
} from '../../domain/presets/elevenlabs-voices.ts';
import { DEFAULT_OUTPUT_FORMAT, ELEVENLABS, type ElevenLabsApi, outputMediaType } from './elevenlabs-api.ts';
import type { RemoteJobState, SubmitContext } from './remote-provider.ts';
import { FinishedJobs, finishedState, sendOnce } from './sync-jobs.ts';
import { splitText } from './text-split.ts';
import { providerOptions } from './upload-form.ts';

/**
 * ElevenLabs text to speech (synchronous): `POST /text-to-speech/{voice_id}?output_format=…` with
 * `{text, model_id, voice_settings: {stability, similarity_boost, style, use_speaker_boost, speed}}`
 * answers the audio; headers `request-id` (our provider job id) and `x-character-count` (what it bills).
 * Text longer than the model's documented limit (our contract allows 10000 characters, over
 * eleven_v3's) is split at sentence ends and the MP3s joined end to end, which MP3's self-contained
 * frames allow; other output formats refuse such text. Later pieces pass the earlier pieces'
 * `previous_request_ids` for continuous prosody (eleven_v3 does not take them).
 */
export const SPEECH_MODELS = [
  'eleven_multilingual_v2',
  'eleven_turbo_v2_5',
  'eleven_flash_v2_5',
  'eleven_v3',
] as const;

/**
 * Characters per request: https://help.elevenlabs.io/hc/en-us/articles/19572237925521 (Flash/Turbo v2.5
 * 40,000, Multilingual v2 10,000) and https://elevenlabs.io/docs/overview/models (Eleven v3 5,000).
 */
const TEXT_LIMITS: Record<string, number> = {
  eleven_multilingual_v2: 10_000,
  eleven_turbo_v2_5: 40_000,
  eleven_flash_v2_5: 40_000,
  eleven_v3: 5_000,
};

/** Fields of `voice_settings` that provider_options may also give flat (as the catalog's schema does). */
const VOICE_SETTINGS = ['stability', 'similarity_boost', 'style', 'use_speaker_boost', 'speed'] as const;

const TIMEOUT_MS = 5 * 60_000;

/** The pieces spoken so far, per run. */
const spokenSoFar = new WeakMap<
  RunContext,
  { audio: Buffer; requestId: string | null; characters: number }[]
>();

/** The voice id for a request's `voice`: a default voice's name (any case), or an ElevenLabs voice id. */
export function elevenLabsVoiceId(voice: unknown): string {
  if (voice === undefined || voice === null || voice === '') return ELEVENLABS_DEFAULT_VOICE_ID;
  const wanted = String(voice).trim();
  const byName = ELEVENLABS_PREMADE_VOICES.find((v) =>
    [v.name, ...(v.aliases ?? [])].some((name) => name.toLowerCase() === wanted.toLowerCase()),
  );
  if (byName) return byName.id;
  // Voice ids (default, cloned, designed, library) are 20 letters and digits.
  if (/^[A-Za-z0-9]{20}$/.test(wanted)) return wanted;
  const names = ELEVENLABS_PREMADE_VOICES.filter((v) => !v.legacy).map((v) => v.name);
  throw new ProviderError(
    'provider_rejected',
    `ElevenLabs has no default voice "${wanted}": give a voice id or one of ${names.join(', ')}.`,
  );
}

export async function submitSpeech(
  api: ElevenLabsApi,
  input: RunInput,
  context: SubmitContext,
): Promise<RemoteJobState> {
  const model = input.offer.providerModelId;
  const text = String(input.body.text ?? '');
  const voiceId = elevenLabsVoiceId(input.body.voice);
  const { output_format, voice_settings, ...options } = providerOptions(input.body, 'elevenlabs');
  const settings: Record<string, unknown> = { ...(voice_settings as Record<string, unknown> | undefined) };
  for (const name of VOICE_SETTINGS) {
    if (name in options) {
      settings[name] = options[name];
      delete options[name];
    }
  }
  const format = typeof output_format === 'string' ? output_format : DEFAULT_OUTPUT_FORMAT;
  const pieces = splitText(text, TEXT_LIMITS[model] ?? 10_000);
  if (pieces.length > 1 && !format.startsWith('mp3')) {
    throw new ProviderError(
      'provider_rejected',
      `ElevenLabs ${model} speaks at most ${TEXT_LIMITS[model]} characters per request; longer text is split and joined only as mp3, not ${format}.`,
    );
  }

  // The driver retries a failed submit whole after a failure that created nothing (a 429): pieces already
  // paid for are kept. A piece whose request may have been taken is not sent again (sendOnce).
  const spoken = spokenSoFar.get(context) ?? [];
  spokenSoFar.set(context, spoken);
  for (const [index, piece] of pieces.entries()) {
    if (index < spoken.length) continue;
    if (pieces.length > 1) {
      context.progress(
        0.05 + (0.9 * index) / pieces.length,
        `Speaking part ${index + 1} of ${pieces.length}`,
      );
    }
    const requestIds = spoken.flatMap((s) => (s.requestId ? [s.requestId] : []));
    const previous =
      model !== 'eleven_v3' && requestIds.length ? { previous_request_ids: requestIds.slice(-3) } : {};
    const done = await sendOnce(ELEVENLABS, context, async () => {
      const response = await api(
        `/text-to-speech/${encodeURIComponent(voiceId)}?output_format=${encodeURIComponent(format)}`,
        {
          method: 'POST',
          headers: { accept: 'audio/mpeg' },
          json: {
            text: piece,
            model_id: model,
            ...(Object.keys(settings).length ? { voice_settings: settings } : {}),
            ...previous,
            ...options,
          },
          signal: context.signal,
          timeoutMs: TIMEOUT_MS,
        },
      );
      return {
        audio: Buffer.from(await response.arrayBuffer()),
        requestId: response.headers.get('request-id'),
        characters: Number(response.headers.get('x-character-count')) || piece.length,
      };
    });
    spoken.push(done);
  }
  const { mediaType, extension } = outputMediaType(format);
  const billedCharacters = spoken.reduce((sum, s) => sum + s.characters, 0);
  return finishedState(
    spoken[0]?.requestId ?? FinishedJobs.newId('elevenlabs-speech'),
    [{ data: Buffer.concat(spoken.map((s) => s.audio)), mediaType, name: `speech.${extension}` }],
    { thousand_characters: billedCharacters / 1000 },
  );
}
