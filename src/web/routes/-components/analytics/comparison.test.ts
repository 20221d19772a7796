import { describe, expect, it } from 'vitest';
import { resolveComparison } from './comparison.ts';
import { resolveRange, span } from './date-range.ts';

const NOW = new Date('2026-11-24T12:00:00Z');
const days = (preset: Parameters<typeof resolveRange>[0], now = NOW) => resolveRange(preset, 'UTC', now);

describe('the period a view is compared with', () => {
  it('compares a calendar quarter with the quarter before, not the equal-length days before it', () => {
    // Jul 1–Sep 30 is 92 days; the 92 days before start on Mar 31. The quarter before is Apr 1–Jun 30.
    expect(resolveComparison('previous', 'last_quarter', days('last_quarter'))).toEqual({
      from: '2026-04-01',
      to: '2026-07-01',
      lastDay: '2026-06-30',
      days: 91,
    });
    expect(resolveComparison('previous', 'this_year', days('this_year'))).toMatchObject({
      from: '2025-01-01',
      lastDay: '2025-12-31',
    });
    expect(resolveComparison('previous', 'last_month', days('last_month'))).toMatchObject({
      from: '2026-09-01',
      lastDay: '2026-09-30',
    });
  });

  it('compares month to date with the same days of the month before, kept inside a shorter month', () => {
    expect(resolveComparison('previous', 'mtd', days('mtd'))).toMatchObject({
      from: '2026-10-01',
      lastDay: '2026-10-24',
    });
    const march31 = new Date('2027-03-31T12:00:00Z');
    expect(resolveComparison('previous', 'mtd', days('mtd', march31))).toMatchObject({
      from: '2027-02-01',
      lastDay: '2027-02-28',
    });
  });

  it('compares rolling days with as many days right before, and 12 months to date with the year before', () => {
    expect(resolveComparison('previous', '30d', days('30d'))).toMatchObject({
      from: '2026-09-26',
      lastDay: '2026-10-25',
      days: 30,
    });
    expect(resolveComparison('previous', '12m', days('12m'))).toMatchObject({
      from: '2024-12-01',
      lastDay: '2025-11-24',
    });
  });

  it('offers the same period last year, custom days, or none', () => {
    expect(resolveComparison('year', 'last_quarter', days('last_quarter'))).toMatchObject({
      from: '2025-07-01',
      lastDay: '2025-09-30',
    });
    // Feb 29 a year back is Feb 28.
    const leap = span('2028-02-01', '2028-03-01');
    expect(resolveComparison('year', 'custom', leap)).toMatchObject({
      from: '2027-02-01',
      lastDay: '2027-02-28',
    });
    expect(
      resolveComparison('custom', '30d', days('30d'), { from: '2026-01-01', to: '2026-01-31' }),
    ).toMatchObject({ from: '2026-01-01', to: '2026-02-01', days: 31 });
    // Custom days that cannot be asked for fall back to the period before.
    expect(
      resolveComparison('custom', 'last_quarter', days('last_quarter'), {
        from: '2026-02-01',
        to: '2026-01-01',
      }),
    ).toMatchObject({ from: '2026-04-01' });
    expect(resolveComparison('off', '30d', days('30d'))).toBeNull();
  });
});
