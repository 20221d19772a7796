import { describe, expect, it } from 'vitest';
import { runProgressText, runTimeText, typicalTimeText } from './run-times.ts';

describe('a model’s expected run, in words', () => {
  it('reads as a range from the median to the 90th percentile, the unit once where both are seconds', () => {
    expect(typicalTimeText(18_200, 24_600)).toBe('usually 18–25 s here');
    expect(typicalTimeText(4_200, 4_240)).toBe('usually 4.2 s here');
    expect(typicalTimeText(800, 2_500)).toBe('usually 800 ms–2.5 s here');
    expect(typicalTimeText(65_000, 130_000)).toBe('usually 1 min 05 s–2 min 10 s here');
  });

  it('says the catalog’s time is the catalog’s, never as measured here', () => {
    const typical = {
      basis: 'typical',
      p50_ms: 6_000,
      p90_ms: 6_000,
      runs: 2,
      scaled_to_seconds: null,
    } as const;
    expect(runTimeText(typical)).toBe('about 6 s (typical for this model)');
    expect(runTimeText({ ...typical, basis: 'measured', p50_ms: 18_200, p90_ms: 24_600 })).toBe(
      'usually 18–25 s here',
    );
  });
});

describe('a followed job’s countdown', () => {
  const measured = {
    basis: 'measured',
    p50_ms: 18_200,
    p90_ms: 24_600,
    runs: 20,
    scaled_to_seconds: null,
  } as const;

  it('counts down to the p50 (the job’s estimated_duration_ms), then within the p90, then says it is late', () => {
    expect(runProgressText(measured, null)).toBe('Expected run: usually 18–25 s here');
    expect(runProgressText(measured, 0)).toBe('About 19 s left · usually 18–25 s here');
    expect(runProgressText(measured, 18_000)).toBe('About 1 s left · usually 18–25 s here');
    expect(runProgressText(measured, 20_000)).toBe('Within 5 s · usually 18–25 s here');
    expect(runProgressText(measured, 30_000)).toBe('Taking longer than usual · usually 18–25 s here');
  });

  it('counts down to the catalog’s time, said as typical', () => {
    const typical = {
      basis: 'typical',
      p50_ms: 6_000,
      p90_ms: 6_000,
      runs: 0,
      scaled_to_seconds: null,
    } as const;
    expect(runProgressText(typical, 2_000)).toBe('About 4 s left · about 6 s (typical for this model)');
    expect(runProgressText(typical, 7_000)).toBe(
      'Taking longer than usual · about 6 s (typical for this model)',
    );
  });
});
