import { type Family, isPlainObject, nameFromUrl, type TranscriptOutput } from './native-input.ts';
import type { RemoteOutput } from './remote-provider.ts';

/*
 * A prediction's `output` as outputs: a URL string or a list of them for media models; an object
 * `{ segments: [{ start, end, text, ... }], transcription, detected_language }` for openai/whisper.
 */

const EXTENSIONS: Record<Family['tool'], string> = {
  image: 'png',
  video: 'mp4',
  speech: 'mp3',
  music: 'mp3',
  transcription: 'json',
};

export interface ReplicateResult {
  outputs: RemoteOutput[];
  outputCount: number;
  transcriptSeconds?: number;
}

export function replicateResult(
  family: Family,
  output: unknown,
  language: string | undefined,
): ReplicateResult {
  if (family.tool === 'transcription') {
    const transcript = transcriptOf(output, language);
    return {
      outputs: [{ inline: transcript, mediaType: 'application/json' }],
      outputCount: 0,
      transcriptSeconds: transcript.segments.at(-1)?.end,
    };
  }
  const urls = (Array.isArray(output) ? output : [output]).filter(
    (url): url is string => typeof url === 'string',
  );
  const outputs = urls.map((url, i) => ({
    url,
    name: nameFromUrl(url, `output-${i + 1}.${EXTENSIONS[family.tool]}`),
  }));
  return { outputs, outputCount: outputs.length };
}

function transcriptOf(output: unknown, language: string | undefined): TranscriptOutput {
  const result = isPlainObject(output) ? output : {};
  const segments = (Array.isArray(result.segments) ? result.segments.filter(isPlainObject) : []).map(
    (segment) => ({
      start: typeof segment.start === 'number' ? segment.start : 0,
      end: typeof segment.end === 'number' ? segment.end : 0,
      text: typeof segment.text === 'string' ? segment.text.trim() : '',
    }),
  );
  const text =
    typeof result.transcription === 'string'
      ? result.transcription.trim()
      : segments.map((s) => s.text).join(' ');
  const detected = typeof result.detected_language === 'string' ? result.detected_language : 'und';
  return { text, language: language ?? detected, duration_seconds: segments.at(-1)?.end ?? 0, segments };
}
