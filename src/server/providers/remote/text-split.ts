/**
 * Splits text for speech APIs that cap the characters of one request (OpenAI 4096, ElevenLabs per model):
 * whole sentences packed into pieces of at most `max` characters; a sentence longer than `max` is cut at
 * its last space before the limit (or hard at the limit when it has none). Shared by both TTS adapters.
 */
export function splitText(text: string, max: number): string[] {
  if (text.length <= max) return [text];
  const sentences = [...new Intl.Segmenter(undefined, { granularity: 'sentence' }).segment(text)].map(
    (s) => s.segment,
  );
  const pieces: string[] = [];
  let current = '';
  const flush = () => {
    if (current.trim()) pieces.push(current.trim());
    current = '';
  };
  for (let sentence of sentences) {
    if (current.length + sentence.length <= max) {
      current += sentence;
      continue;
    }
    flush();
    while (sentence.length > max) {
      const space = sentence.lastIndexOf(' ', max);
      const cut = space > 0 ? space : max;
      pieces.push(sentence.slice(0, cut).trim());
      sentence = sentence.slice(cut);
    }
    current = sentence;
  }
  flush();
  return pieces;
}
