import type { OnScreenText } from '../../../contract/video-analysis.ts';
import type { OcrLine } from './analyze-ocr.ts';

/** What OCR read on one sampled frame. */
export interface OcrSample {
  time: number;
  lines: readonly OcrLine[];
}

/** Readings below this confidence are mostly texture read as letters. */
const MIN_CONFIDENCE = 60;
/** Two readings this similar (0..1) are the same text read twice, with OCR noise. */
const SAME_TEXT = 0.8;

/** Lowercase letters and digits with single spaces: what two readings are compared on. */
export function normalizeText(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** Levenshtein similarity 0..1. */
export function similarity(a: string, b: string): number {
  if (a === b) return 1;
  if (!a || !b) return 0;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
    }
    previous = current;
  }
  return 1 - previous[b.length]! / Math.max(a.length, b.length);
}

/** A line worth reporting: confident, with at least three letters or digits. */
export function isMeaningfulLine(line: OcrLine): boolean {
  return line.confidence >= MIN_CONFIDENCE && normalizeText(line.text).replace(/ /g, '').length >= 3;
}

/**
 * The text seen on screen, each distinct line once with the first and last sample it was read on; the
 * most confident reading of a line is the one kept.
 */
export function collectOnScreenText(samples: readonly OcrSample[]): OnScreenText[] {
  const entries: Array<OnScreenText & { key: string }> = [];
  for (const sample of [...samples].sort((a, b) => a.time - b.time)) {
    for (const line of sample.lines.filter(isMeaningfulLine)) {
      const text = line.text.replace(/\s+/g, ' ').trim();
      const key = normalizeText(text);
      const same = entries.find((entry) => similarity(entry.key, key) >= SAME_TEXT);
      if (!same) {
        entries.push({ text, key, start: sample.time, end: sample.time, confidence: line.confidence });
        continue;
      }
      same.start = Math.min(same.start, sample.time);
      same.end = Math.max(same.end, sample.time);
      if (line.confidence > same.confidence) Object.assign(same, { text, key, confidence: line.confidence });
    }
  }
  return entries.map(({ key: _, ...entry }) => ({ ...entry, confidence: Math.round(entry.confidence) }));
}
