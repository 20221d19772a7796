import { describe, expect, it } from 'vitest';
import { splitText } from './speech-text.ts';

describe('splitText', () => {
  it('keeps short text whole, trimmed', () => {
    expect(splitText('  Hello there.  ', 100)).toEqual(['Hello there.']);
  });

  it('cuts at the last sentence end that fits', () => {
    const text = 'One two three. Four five six! Seven eight nine? Ten eleven.';
    expect(splitText(text, 32)).toEqual(['One two three. Four five six!', 'Seven eight nine? Ten eleven.']);
  });

  it('cuts at a space when no sentence ends in reach, and hard-cuts a word longer than a piece', () => {
    expect(splitText('alpha beta gamma delta', 12)).toEqual(['alpha beta', 'gamma delta']);
    expect(splitText('abcdefghijklmnop', 5)).toEqual(['abcde', 'fghij', 'klmno', 'p']);
  });

  it('never loses or reorders words, and respects the limit', () => {
    const text = Array.from({ length: 300 }, (_, i) => `word${i}${i % 7 === 0 ? '.' : ''}`).join(' ');
    const pieces = splitText(text, 120);
    expect(pieces.every((p) => p.length <= 120)).toBe(true);
    expect(pieces.join(' ')).toBe(text);
  });
});
