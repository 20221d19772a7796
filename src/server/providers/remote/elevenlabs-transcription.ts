import type { RunContext, RunInput } from '../../domain/jobs/provider.ts';
import { ProviderError } from '../../domain/jobs/provider-error.ts';
import { ELEVENLABS, type ElevenLabsApi } from './elevenlabs-api.ts';
import { durationFromSize, mediaDurationSeconds } from './media-duration.ts';
import type { Transcript } from './openai-transcription.ts';
import type { RemoteJobState } from './remote-provider.ts';
import { FinishedJobs, finishedState } from './sync-jobs.ts';
import { appendFields, primaryLanguage, providerOptions, uploadFile } from './upload-form.ts';

/**
 * ElevenLabs speech to text (synchronous): `POST /speech-to-text`, multipart `{model_id, file,
 * language_code}`, answers `{language_code, language_probability, text, words: [{text, start, end,
 * type: word | spacing | audio_event, speaker_id}]}`. Segments are built from the words: a segment
 * ends after sentence punctuation or before a pause longer than 0.8 s. The audio's length (billed in
 * minutes) is read from the file's own headers (WAV, MP3), else taken as the last word's end.
 */
export const TRANSCRIPTION_MODELS = ['scribe_v1'] as const;

const PAUSE_SECONDS = 0.8;
const SENTENCE_END = /[.!?…。！？]["'”’)\]]*$/;
const TIMEOUT_MS = 10 * 60_000;

export interface ScribeWord {
  text: string;
  start?: number;
  end?: number;
  type?: string;
}

interface ScribeAnswer {
  language_code?: string;
  text?: string;
  words?: ScribeWord[];
}

/** Timed segments from Scribe's words and spacings. */
export function segmentsOf(words: readonly ScribeWord[]): Transcript['segments'] {
  const segments: Transcript['segments'] = [];
  let text = '';
  let start: number | null = null;
  let end = 0;
  const close = () => {
    if (start !== null && text.trim()) segments.push({ start, end, text: text.trim() });
    text = '';
    start = null;
  };
  for (const word of words) {
    if (word.type === 'spacing') {
      text += word.text;
      continue;
    }
    if (start !== null && typeof word.start === 'number' && word.start - end > PAUSE_SECONDS) close();
    if (start === null) start = word.start ?? end;
    text += word.text;
    end = word.end ?? word.start ?? end;
    if (SENTENCE_END.test(word.text)) close();
  }
  close();
  return segments;
}

export async function submitTranscription(
  api: ElevenLabsApi,
  input: RunInput,
  context: RunContext,
): Promise<RemoteJobState> {
  const audio = await uploadFile(context, String(input.body.audio_url), 'audio');
  const form = new FormData();
  form.append('file', audio.blob, audio.name);
  appendFields(
    form,
    {
      model_id: input.offer.providerModelId,
      language_code: primaryLanguage(input.body.language),
      ...providerOptions(input.body, 'elevenlabs'),
    },
    'repeat',
  );
  const response = await api('/speech-to-text', {
    method: 'POST',
    form,
    signal: context.signal,
    timeoutMs: TIMEOUT_MS,
  });
  let answer: ScribeAnswer;
  try {
    answer = (await response.json()) as ScribeAnswer;
  } catch {
    throw new ProviderError('provider_error', `${ELEVENLABS} answered a transcription that is not JSON.`);
  }
  const words = answer.words ?? [];
  const lastEnd = words.reduce((latest, w) => Math.max(latest, w.end ?? 0), 0);
  const duration = mediaDurationSeconds(audio.body) ?? (lastEnd || durationFromSize(audio.body));
  const transcript: Transcript = {
    text: (answer.text ?? '').trim(),
    language: typeof input.body.language === 'string' ? input.body.language : (answer.language_code ?? null),
    duration_seconds: duration,
    segments: segmentsOf(words),
  };
  return finishedState(
    response.headers.get('request-id') ?? FinishedJobs.newId('elevenlabs-stt'),
    [{ inline: transcript, mediaType: 'application/json' }],
    { minutes: duration / 60 },
  );
}
