import type { RunContext, RunInput } from '../../domain/jobs/provider.ts';
import { durationFromSize, mediaDurationSeconds } from './media-duration.ts';
import type { OpenAIApi } from './openai-api.ts';
import type { RemoteJobState } from './remote-provider.ts';
import { FinishedJobs, finishedState } from './sync-jobs.ts';
import { appendFields, primaryLanguage, providerOptions, uploadFile } from './upload-form.ts';

/**
 * OpenAI transcription (synchronous): `POST /audio/transcriptions`, multipart `{file, model, language,
 * response_format}`. whisper-1 is asked for `verbose_json` with `timestamp_granularities[]=segment`,
 * which answers `duration` and timed `segments`. gpt-transcribe and the gpt-4o(-mini)-transcribe models answer only
 * `json` (`text`, and `usage`, in seconds when billed by duration): their transcript becomes one
 * segment, and the audio's length, when `usage` does not give it, is read from the file's own
 * headers (WAV, MP3), or as a last resort estimated from its size at 128 kbit/s.
 */
export const TRANSCRIPTION_MODELS = [
  'gpt-transcribe',
  'whisper-1',
  'gpt-4o-transcribe',
  'gpt-4o-mini-transcribe',
] as const;

const TIMEOUT_MS = 10 * 60_000; // up to 25 MB of audio

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
  context: RunContext,
): Promise<RemoteJobState> {
  const model = input.offer.providerModelId;
  const audio = await uploadFile(context, String(input.body.audio_url), 'audio');
  const fields: Record<string, unknown> = {
    model,
    language: primaryLanguage(input.body.language),
    ...(model === 'whisper-1'
      ? { response_format: 'verbose_json', timestamp_granularities: ['segment'] }
      : { response_format: 'json' }),
    ...providerOptions(input.body, 'openai'),
  };
  const form = new FormData();
  form.append('file', audio.blob, audio.name);
  appendFields(form, fields);
  const response = await api.fetch('/audio/transcriptions', {
    method: 'POST',
    form,
    signal: context.signal,
    timeoutMs: TIMEOUT_MS,
  });
  const answer = parseAnswer(await response.text());

  const usageSeconds =
    answer.usage?.type === 'duration' ? (answer.usage.duration ?? answer.usage.seconds) : undefined;
  const duration =
    answer.duration ?? usageSeconds ?? mediaDurationSeconds(audio.body) ?? durationFromSize(audio.body);
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
