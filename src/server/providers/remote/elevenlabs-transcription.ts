import type { RunInput } from '../../domain/jobs/provider.ts';
import { ProviderError } from '../../domain/jobs/provider-error.ts';
import { ELEVENLABS, type ElevenLabsApi } from './elevenlabs-api.ts';
import { durationFromSize } from './media-duration.ts';
import { inputFileOf } from './native-input.ts';
import type { Transcript } from './openai-transcription.ts';
import type { RemoteJobState, SubmitContext } from './remote-provider.ts';
import { FinishedJobs, finishedState, sendOnce } from './sync-jobs.ts';
import {
  checkFileSize,
  type FormPart,
  fieldParts,
  filePart,
  primaryLanguage,
  providerOptions,
  sendingForm,
  streamedForm,
} from './upload-form.ts';

/**
 * ElevenLabs speech to text (synchronous): `POST /speech-to-text`, multipart `{model_id, file,
 * language_code}`, answers `{language_code, language_probability, text, words: [{text, start, end,
 * type: word | spacing | audio_event, speaker_id}]}`. Segments are built from the words: a segment
 * ends after sentence punctuation or before a pause longer than 0.8 s. The audio's length (billed in
 * minutes) is read from the file's own headers (WAV, MP3), else taken as the last word's end.
 * An input ElevenLabs can fetch itself (`file.publicUrl`) goes as `source_url`; otherwise its bytes are
 * streamed into the multipart `file`. Limits from the "Create transcript" reference
 * (https://elevenlabs.io/docs/api-reference/speech-to-text/convert, as elevenlabs-js carries it): an
 * uploaded file under 5.0 GB, a URL's file under 2 GB (stated for `cloud_storage_url`, which
 * `source_url` replaces).
 */
export const TRANSCRIPTION_MODELS = ['scribe_v1'] as const;

const PAUSE_SECONDS = 0.8;
const SENTENCE_END = /[.!?…。！？]["'”’)\]]*$/;
const TIMEOUT_MS = 10 * 60_000;
const UPLOAD_MAX_BYTES = 5_000_000_000;
const URL_MAX_BYTES = 2_000_000_000;

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
  context: SubmitContext,
): Promise<RemoteJobState> {
  const audio = await inputFileOf(context, String(input.body.audio_url));
  const fields = fieldParts(
    {
      model_id: input.offer.providerModelId,
      language_code: primaryLanguage(input.body.language),
      ...(audio.publicUrl ? { source_url: audio.publicUrl } : {}),
      ...providerOptions(input.body, 'elevenlabs'),
    },
    'repeat',
  );
  let parts: FormPart[] = fields;
  if (audio.publicUrl) {
    checkFileSize(audio, URL_MAX_BYTES, 'The audio');
  } else {
    checkFileSize(audio, UPLOAD_MAX_BYTES, 'The audio');
    parts = [filePart('file', audio, UPLOAD_MAX_BYTES), ...fields];
  }
  const form = streamedForm(parts, context.signal);
  const response = await sendOnce(ELEVENLABS, context, () =>
    sendingForm(form, () =>
      api('/speech-to-text', { method: 'POST', stream: form, signal: context.signal, timeoutMs: TIMEOUT_MS }),
    ),
  );
  let answer: ScribeAnswer;
  try {
    answer = (await response.json()) as ScribeAnswer;
  } catch {
    throw new ProviderError('provider_error', `${ELEVENLABS} answered a transcription that is not JSON.`);
  }
  const words = answer.words ?? [];
  const lastEnd = words.reduce((latest, w) => Math.max(latest, w.end ?? 0), 0);
  const duration =
    (await audio.durationSeconds()) ?? (lastEnd || durationFromSize({ length: audio.size ?? 0 }));
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
