import type { TranscriptSegment, TranscriptWord } from '../../../contract/transcript.ts';

/*
 * Reads what `pocketsphinx_continuous -time yes` prints: per utterance a line with the hypothesis, then one
 * line per word `word start end posterior`, framed by `<s>` and `</s>`, with fillers such as `<sil>` and
 * `[NOISE]` between words and alternate pronunciations marked `word(2)`.
 */

const WORD_LINE = /^(\S+) (\d+(?:\.\d+)?) (\d+(?:\.\d+)?) (\d+(?:\.\d+)?(?:e[-+]?\d+)?)$/i;
/** A pause this long inside an utterance ends a segment once the segment is this many seconds long. */
const PAUSE_BREAK_SECONDS = 2.5;
/** Subtitle-sized segments: a long utterance without pauses is cut before it grows past this. */
const MAX_SEGMENT_SECONDS = 6;

type Token = { kind: 'start' } | { kind: 'pause' } | { kind: 'word'; word: TranscriptWord };

const round = (value: number, digits: number) => Number(value.toFixed(digits));

function tokenOf(line: string): Token | null {
  const match = WORD_LINE.exec(line.trim());
  if (!match) return null;
  const [, raw = '', start, end, posterior] = match;
  if (raw === '<s>') return { kind: 'start' };
  // </s>, <sil>, [NOISE], [SPEECH], ++GARBAGE++ ...: not words.
  if (/^(<.*>|\[.*\]|\+\+.*\+\+)$/.test(raw)) return { kind: 'pause' };
  return {
    kind: 'word',
    word: {
      word: raw.replace(/\(\d+\)$/, ''),
      start: round(Number(start), 2),
      end: round(Number(end), 2),
      confidence: round(Math.min(1, Math.max(0, Number(posterior))), 3),
    },
  };
}

/** Segments from the recogniser's output: one per utterance, long utterances cut at pauses. */
export function parsePocketsphinx(stdout: string): TranscriptSegment[] {
  const segments: TranscriptSegment[] = [];
  let words: TranscriptWord[] = [];
  const flush = () => {
    if (words.length === 0) return;
    segments.push({
      start: words[0]!.start,
      end: words.at(-1)!.end,
      text: words.map((w) => w.word).join(' '),
      words,
    });
    words = [];
  };
  const length = () => (words.length === 0 ? 0 : words.at(-1)!.end - words[0]!.start);
  for (const line of stdout.split(/\r?\n/)) {
    const token = tokenOf(line);
    if (!token) continue;
    if (token.kind === 'start') flush();
    else if (token.kind === 'pause') {
      if (length() >= PAUSE_BREAK_SECONDS) flush();
    } else {
      if (words.length > 0 && token.word.end - words[0]!.start > MAX_SEGMENT_SECONDS) flush();
      words.push(token.word);
    }
  }
  flush();
  return segments;
}
