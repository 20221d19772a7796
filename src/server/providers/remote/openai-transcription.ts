import type { RunInput } from '../../domain/jobs/provider.ts';
import { durationFromSize } from './media-duration.ts';
import { inputFileOf } from './native-input.ts';
import { OPENAI, type OpenAIApi } from './openai-api.ts';
import type { RemoteJobState, SubmitContext } from './remote-provider.ts';
import { FinishedJobs, finishedState, sendOnce } from './sync-jobs.ts';
import {
  checkFileSize,
  fieldParts,
  filePart,
  primaryLanguage,
  providerOptions,
  sendingForm,
  streamedForm,
} from './upload-form.ts';

/**
 * OpenAI transcription (synchronous): `POST /audio/transcriptions`, multipart `{file, model, language,
 * response_format}`. whisper-1 is asked for `verbose_json` with `timestamp_granularities[]=segment`,
 * which answers `duration` and timed `segments`. gpt-transcribe and the gpt-4o(-mini)-transcribe models answer only
 * `json` (`text`, and `usage`, in seconds when billed by duration): their transcript becomes one
 * segment, and the audio's length, when `usage` does not give it, is read from the file's own
 * headers (WAV, MP3), or as a last resort estimated from its size at 128 kbit/s. The audio is streamed
 * into the multipart body from storage, never held whole.
 */
export const TRANSCRIPTION_MODELS = [
  'gpt-transcribe',
  'whisper-1',
  'gpt-4o-transcribe',
  'gpt-4o-mini-transcribe',
] as const;

const TIMEOUT_MS = 10 * 60_000; // up to 25 MB of audio

/**
 * "File uploads are currently limited to 25 MB" (https://platform.openai.com/docs/guides/speech-to-text);
 * the API answers 413 past 26214400 bytes. Larger audio is refused here, before anything is uploaded.
 */
export const TRANSCRIPTION_MAX_BYTES = 25 * 1024 * 1024;

interface TranscriptionAnswer {
  text?: string;
  language?: string;
  duration?: number;
  segments?: { start: number; end: number; text: string }[];
  usage?: { type?: string; duration?: number; seconds?: number };
}

/** The transcript as outputs[0]: the shape the local engine also answers. */
export interface Transcript {
  text: string;
  language: string | null;
  duration_seconds: number;
  segments: { start: number; end: number; text: string }[];
}

export async function submitTranscription(
  api: OpenAIApi,
  input: RunInput,
  context: SubmitContext,
): Promise<RemoteJobState> {
  const model = input.offer.providerModelId;
  const audio = await inputFileOf(context, String(input.body.audio_url));
  checkFileSize(audio, TRANSCRIPTION_MAX_BYTES, 'The audio');
  const fields: Record<string, unknown> = {
    model,
    language: primaryLanguage(input.body.language),
    ...(model === 'whisper-1'
      ? { response_format: 'verbose_json', timestamp_granularities: ['segment'] }
      : { response_format: 'json' }),
    ...providerOptions(input.body, 'openai'),
  };
  const form = streamedForm(
    [filePart('file', audio, TRANSCRIPTION_MAX_BYTES), ...fieldParts(fields)],
    context.signal,
  );
  const answer = await sendOnce(OPENAI, context, () =>
    sendingForm(form, async () => {
      const response = await api.fetch('/audio/transcriptions', {
        method: 'POST',
        stream: form,
        signal: context.signal,
        timeoutMs: TIMEOUT_MS,
      });
      return parseAnswer(await response.text());
    }),
  );

  const usageSeconds =
    answer.usage?.type === 'duration' ? (answer.usage.duration ?? answer.usage.seconds) : undefined;
  const duration =
    answer.duration ??
    usageSeconds ??
    (await audio.durationSeconds()) ??
    durationFromSize({ length: audio.size ?? 0 });
  const text = (answer.text ?? '').trim();
  const segments = answer.segments
    ? answer.segments.map((s) => ({ start: s.start, end: s.end, text: s.text.trim() }))
    : text
      ? [{ start: 0, end: duration, text }]
      : [];
  const transcript: Transcript = {
    text,
    language: typeof input.body.language === 'string' ? input.body.language : (answer.language ?? null),
    duration_seconds: duration,
    segments,
  };
  return finishedState(
    FinishedJobs.newId('openai-stt'),
    [{ inline: transcript, mediaType: 'application/json' }],
    { minutes: duration / 60 },
  );
}

/** JSON answers (json, verbose_json); a `text` response_format set in provider_options answers plain text. */
function parseAnswer(body: string): TranscriptionAnswer {
  try {
    const parsed: unknown = JSON.parse(body);
    if (parsed && typeof parsed === 'object') return parsed as TranscriptionAnswer;
  } catch {
    // plain text
  }
  return { text: body };
}
