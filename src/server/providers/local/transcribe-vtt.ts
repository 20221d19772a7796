import type { TranscriptSegment } from '../../../contract/transcript.ts';

function timestamp(seconds: number): string {
  const ms = Math.max(0, Math.round(seconds * 1000));
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor(ms / 60_000) % 60;
  const s = Math.floor(ms / 1000) % 60;
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  return `${pad(h)}:${pad(m)}:${pad(s)}.${pad(ms % 1000, 3)}`;
}

/** The segments as WebVTT cues (a cue's text cannot hold a blank line or `-->`). */
export function toWebVtt(segments: readonly TranscriptSegment[]): string {
  const cues = segments.map((segment, index) => {
    const text = segment.text.replace(/\s*\n\s*/g, ' ').replaceAll('-->', '->');
    return `${index + 1}\n${timestamp(segment.start)} --> ${timestamp(segment.end)}\n${text}\n`;
  });
  return ['WEBVTT\n', ...cues].join('\n');
}
