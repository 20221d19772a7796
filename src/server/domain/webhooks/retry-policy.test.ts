import { describe, expect, it } from 'vitest';
import { DEFAULT_WEBHOOK_RETRY_POLICY, retryDelayMs } from './retry-policy.ts';

describe('webhook retry policy', () => {
  it('defaults to 5 s base, factor 3, 1 h cap, 8 tries, 15 s timeout', () => {
    expect(DEFAULT_WEBHOOK_RETRY_POLICY).toMatchObject({
      baseDelayMs: 5_000,
      factor: 3,
      maxDelayMs: 3_600_000,
      maxAttempts: 8,
      timeoutMs: 15_000,
    });
    expect(Object.isFrozen(DEFAULT_WEBHOOK_RETRY_POLICY)).toBe(true);
  });

  it('grows the ceiling exponentially up to the cap', () => {
    const top = { ...DEFAULT_WEBHOOK_RETRY_POLICY, random: () => 1 };
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((n) => retryDelayMs(n, top))).toEqual([
      5_000, 15_000, 45_000, 135_000, 405_000, 1_215_000, 3_600_000, 3_600_000,
    ]);
  });

  it('draws the delay uniformly below the ceiling (full jitter)', () => {
    const at = (r: number) => retryDelayMs(3, { ...DEFAULT_WEBHOOK_RETRY_POLICY, random: () => r });
    expect(at(0)).toBe(0);
    expect(at(0.5)).toBe(22_500);
    for (let i = 0; i < 200; i++) {
      const delay = retryDelayMs(4, DEFAULT_WEBHOOK_RETRY_POLICY);
      expect(delay).toBeGreaterThanOrEqual(0);
      expect(delay).toBeLessThanOrEqual(135_000);
    }
  });
});
