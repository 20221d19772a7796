/** Where a sentence (or clause) ends: the cut goes after the punctuation and its spaces. */
const SENTENCE_END = /[.!?;:。！？；…]+["'”’)\]]*\s+|\n+/g;

/**
 * Cuts text into pieces of at most `max` characters for the speech engines: each run stays short (progress
 * and cancellation happen between pieces) and pieces end at sentence ends where possible, else at a space.
 */
export function splitText(text: string, max: number): string[] {
  const pieces: string[] = [];
  let rest = text.trim();
  while (rest.length > max) {
    const head = rest.slice(0, max + 1);
    let cut = 0;
    for (const match of head.matchAll(SENTENCE_END)) {
      const end = match.index + match[0].length;
      if (end <= max) cut = end;
    }
    // A sentence end near the start would make a tiny piece: cut at the last space instead.
    if (cut < max / 3) cut = head.lastIndexOf(' ') > 0 ? head.lastIndexOf(' ') + 1 : max;
    pieces.push(rest.slice(0, cut).trim());
    rest = rest.slice(cut).trim();
  }
  if (rest) pieces.push(rest);
  return pieces.filter((piece) => piece.length > 0);
}
