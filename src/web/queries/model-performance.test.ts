import { describe, expect, it } from 'vitest';
import { typicalTimeText } from './model-performance.ts';

describe('a model’s typical time here', () => {
  it('reads as a range from the median to the 90th percentile, the unit once where both are seconds', () => {
    expect(typicalTimeText(18_200, 24_600)).toBe('usually 18–25 s here');
    expect(typicalTimeText(4_200, 4_240)).toBe('usually 4.2 s here');
    expect(typicalTimeText(800, 2_500)).toBe('usually 800 ms–2.5 s here');
    expect(typicalTimeText(65_000, 130_000)).toBe('usually 1 min 05 s–2 min 10 s here');
  });
});
