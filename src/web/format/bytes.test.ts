import { describe, expect, it } from 'vitest';
import { formatBytes } from './bytes.ts';

describe('formatBytes', () => {
  it('writes sizes in decimal units, and nothing when unknown', () => {
    expect(formatBytes(999)).toBe('999 B');
    expect(formatBytes(2048)).toBe('2 kB');
    expect(formatBytes(1_550_000)).toBe('1.6 MB');
    expect(formatBytes(null)).toBeNull();
  });
});
