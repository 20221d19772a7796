import { describe, expect, it } from 'vitest';
import { colorName } from './analyze-picture.ts';
import { collectOnScreenText, similarity } from './analyze-text.ts';

describe('collectOnScreenText', () => {
  it('merges readings of the same line (OCR noise included), keeping the most confident one', () => {
    const entries = collectOnScreenText([
      { time: 3, lines: [{ text: 'QUARTERLY REPORT 2026', confidence: 95 }] },
      { time: 1, lines: [{ text: 'QUARTERLY REP0RT 2026', confidence: 80 }] },
      { time: 5, lines: [{ text: 'Thank you', confidence: 90 }] },
    ]);
    expect(entries).toEqual([
      { text: 'QUARTERLY REPORT 2026', start: 1, end: 3, confidence: 95 },
      { text: 'Thank you', start: 5, end: 5, confidence: 90 },
    ]);
  });

  it('drops unsure readings and specks', () => {
    const entries = collectOnScreenText([
      {
        time: 0,
        lines: [
          { text: 'Se', confidence: 90 },
          { text: 'garbled words', confidence: 20 },
          { text: ' = ; ', confidence: 99 },
        ],
      },
    ]);
    expect(entries).toEqual([]);
  });
});

describe('similarity', () => {
  it('is 1 for equal strings and falls with edits', () => {
    expect(similarity('report', 'report')).toBe(1);
    expect(similarity('report', 'rep0rt')).toBeCloseTo(5 / 6);
    expect(similarity('report', '')).toBe(0);
  });
});

describe('colorName', () => {
  it.each([
    [[255, 0, 0], 'red'],
    [[0, 0, 255], 'blue'],
    [[0, 160, 0], 'green'],
    [[250, 250, 250], 'white'],
    [[10, 10, 10], 'black'],
    [[128, 128, 128], 'gray'],
    [[255, 220, 0], 'yellow'],
    [[120, 60, 20], 'brown'],
    [[255, 105, 180], 'pink'],
  ] as const)('%j is %s', ([r, g, b], name) => {
    expect(colorName(r, g, b)).toBe(name);
  });
});
