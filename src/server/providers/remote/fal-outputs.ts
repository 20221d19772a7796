import {
  type Family,
  isPlainObject,
  type Json,
  nameFromUrl,
  positiveNumber,
  safeFileName,
  type TranscriptOutput,
} from './native-input.ts';
import type { RemoteOutput } from './remote-provider.ts';

/*
 * A fal result as outputs. Files are `File` objects ({ url, content_type?, file_name? }) under
 * `images` (a list), `image`, `video`, `audio` or `audio_file` depending on the model; whisper and
 * wizper answer `text` with `chunks` ({ timestamp: [start, end], text }) and the detected languages.
 */

const FILE_KEYS = ['images', 'image', 'video', 'audio', 'audio_file'] as const;
const EXTENSIONS: Record<Family['tool'], string> = {
  image: 'png',
  video: 'mp4',
  speech: 'mp3',
  music: 'mp3',
  transcription: 'json',
};

export interface FalResult {
  outputs: RemoteOutput[];
  /** How many files the provider made (images are billed by it). */
  outputCount: number;
  /** Seconds of media the answer reports (omnihuman's `duration`, minimax speech's `duration_ms`). */
  seconds?: number;
  /** End of the last transcript segment. */
  transcriptSeconds?: number;
}

export function falResult(
  family: Family,
  result: Json,
  language: string | undefined,
  inputSeconds?: number,
): FalResult {
  if (family.tool === 'transcription') {
    const transcript = transcriptOf(result, language, inputSeconds);
    return {
      outputs: [{ inline: transcript, mediaType: 'application/json' }],
      outputCount: 0,
      transcriptSeconds: transcript.segments.at(-1)?.end,
    };
  }
  const files = FILE_KEYS.flatMap((key) => {
    const value = result[key];
    return (Array.isArray(value) ? value : [value]).filter(
      (file): file is Json => isPlainObject(file) && typeof file.url === 'string',
    );
  });
  const outputs = files.map((file, i): RemoteOutput => {
    const url = file.url as string;
    const fallback = `output-${i + 1}.${EXTENSIONS[family.tool]}`;
    const name = safeFileName(file.file_name) ?? nameFromUrl(url, fallback);
    const mediaType =
      typeof file.content_type === 'string' && file.content_type ? file.content_type : undefined;
    return mediaType ? { url, name, mediaType } : { url, name };
  });
  const durationMs = positiveNumber(result.duration_ms);
  const seconds = positiveNumber(result.duration) ?? (durationMs === null ? null : durationMs / 1000);
  return seconds === null
    ? { outputs, outputCount: outputs.length }
    : { outputs, outputCount: outputs.length, seconds };
}

function transcriptOf(result: Json, language: string | undefined, inputSeconds?: number): TranscriptOutput {
  const chunks = Array.isArray(result.chunks) ? result.chunks.filter(isPlainObject) : [];
  const segments = chunks.map((chunk) => {
    // Whisper may leave the end of the last chunk null.
    const [from, to] = Array.isArray(chunk.timestamp) ? chunk.timestamp : [];
    const start = typeof from === 'number' ? from : 0;
    const end = typeof to === 'number' ? to : (inputSeconds ?? start);
    return { start, end, text: typeof chunk.text === 'string' ? chunk.text.trim() : '' };
  });
  const detected = [result.inferred_languages, result.languages].find(Array.isArray)?.[0];
  return {
    text: typeof result.text === 'string' ? result.text.trim() : segments.map((s) => s.text).join(' '),
    language: language ?? (typeof detected === 'string' ? detected : 'und'),
    duration_seconds: segments.at(-1)?.end ?? inputSeconds ?? 0,
    segments,
  };
}
