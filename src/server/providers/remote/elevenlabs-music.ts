import type { RunInput } from '../../domain/jobs/provider.ts';
import {
  DEFAULT_OUTPUT_FORMAT,
  ELEVENLABS,
  type ElevenLabsApi,
  outputMediaType,
  rawAudioSeconds,
} from './elevenlabs-api.ts';
import { mediaDurationSeconds } from './media-duration.ts';
import type { RemoteJobState, SubmitContext } from './remote-provider.ts';
import { FinishedJobs, finishedState, sendOnce } from './sync-jobs.ts';
import { providerOptions } from './upload-form.ts';

/**
 * Eleven Music (synchronous): `POST /music?output_format=…` with `{prompt, music_length_ms, model_id:
 * "music_v1"}` (plus `force_instrumental`, `seed`, … from provider_options) answers the audio bytes.
 * ElevenLabs takes 3 000 to 300 000 ms: our `duration` (1 to 600 s) is clamped into 3 to 300 s. A
 * `composition_plan` in provider_options replaces the prompt and length (the API refuses both).
 */
export const MUSIC_MODELS = ['music_v1'] as const;

const MIN_SECONDS = 3;
const MAX_SECONDS = 300;
const TIMEOUT_MS = 10 * 60_000; // minutes of music take minutes to make

/** The length ElevenLabs will be asked for, in seconds, or null when the model chooses it. */
export function musicSeconds(input: RunInput): number | null {
  const ms = Number(providerOptions(input.body, 'elevenlabs').music_length_ms);
  if (Number.isFinite(ms) && ms > 0) return ms / 1000;
  const duration = input.body.duration;
  return typeof duration === 'number' ? Math.min(MAX_SECONDS, Math.max(MIN_SECONDS, duration)) : null;
}

export async function submitMusic(
  api: ElevenLabsApi,
  input: RunInput,
  context: SubmitContext,
): Promise<RemoteJobState> {
  const { output_format, ...options } = providerOptions(input.body, 'elevenlabs');
  const format = typeof output_format === 'string' ? output_format : DEFAULT_OUTPUT_FORMAT;
  const seconds = musicSeconds(input);
  const json: Record<string, unknown> =
    options.composition_plan === undefined
      ? {
          prompt: input.body.prompt,
          ...(seconds === null ? {} : { music_length_ms: Math.round(seconds * 1000) }),
          model_id: input.offer.providerModelId,
          ...options,
        }
      : { model_id: input.offer.providerModelId, ...options };
  const { audio, requestId } = await sendOnce(ELEVENLABS, context, async () => {
    const response = await api(`/music?output_format=${encodeURIComponent(format)}`, {
      method: 'POST',
      headers: { accept: 'audio/mpeg' },
      json,
      signal: context.signal,
      timeoutMs: TIMEOUT_MS,
    });
    return {
      audio: Buffer.from(await response.arrayBuffer()),
      requestId: response.headers.get('request-id'),
    };
  });
  const { mediaType, extension } = outputMediaType(format);
  // Billed for the length asked for; when the model chose it (or a plan set it), for what the audio says.
  const billedSeconds =
    (options.composition_plan === undefined ? seconds : null) ??
    mediaDurationSeconds(audio) ??
    rawAudioSeconds(format, audio.length) ??
    0;
  return finishedState(
    requestId ?? FinishedJobs.newId('elevenlabs-music'),
    [{ data: audio, mediaType, name: `music.${extension}` }],
    { seconds: billedSeconds },
  );
}
