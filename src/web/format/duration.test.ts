import { describe, expect, it } from 'vitest';
import { elapsedMs, formatDuration } from './duration.ts';

describe('duration formatting', () => {
  it('picks a unit that fits a table cell', () => {
    expect(formatDuration(850)).toBe('850 ms');
    expect(formatDuration(4210)).toBe('4.2 s');
    expect(formatDuration(12_400)).toBe('12 s');
    expect(formatDuration(185_000)).toBe('3 min 05 s');
    expect(formatDuration(7_440_000)).toBe('2 h 04 min');
  });

  it('shows a dash for nonsense', () => {
    expect(formatDuration(-1)).toBe('—');
    expect(formatDuration(Number.NaN)).toBe('—');
  });

  it('measures between instants, or says it cannot', () => {
    expect(elapsedMs('2026-01-01T00:00:00.000Z', '2026-01-01T00:00:01.500Z')).toBe(1500);
    expect(elapsedMs(null, '2026-01-01T00:00:01.500Z')).toBeNull();
  });
});
