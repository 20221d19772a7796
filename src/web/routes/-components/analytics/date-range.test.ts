import { describe, expect, it } from 'vitest';
import { bucketFor, customRangeProblem, resolveRange, todayIn } from './date-range.ts';

// 2026-11-24 23:30 UTC: already the 25th in Paris, still the 24th in New York.
const NOW = new Date('2026-11-24T23:30:00Z');

describe('range presets', () => {
  it('reads "today" in the chosen timezone', () => {
    expect(todayIn('Europe/Paris', NOW)).toBe('2026-11-25');
    expect(todayIn('America/New_York', NOW)).toBe('2026-11-24');
    expect(resolveRange('today', 'Europe/Paris', NOW)).toEqual({
      from: '2026-11-25',
      to: '2026-11-26',
      lastDay: '2026-11-25',
      days: 1,
    });
  });

  it('ends rolling ranges with today, the API end being the day after (exclusive)', () => {
    expect(resolveRange('7d', 'UTC', NOW)).toMatchObject({ from: '2026-11-18', to: '2026-11-25', days: 7 });
    expect(resolveRange('30d', 'UTC', NOW)).toMatchObject({ from: '2026-10-26', to: '2026-11-25', days: 30 });
    expect(resolveRange('90d', 'UTC', NOW)).toMatchObject({ from: '2026-08-27', days: 90 });
  });

  it('takes calendar months: month to date, this month and last month whole, twelve months from a month start', () => {
    expect(resolveRange('mtd', 'UTC', NOW)).toMatchObject({ from: '2026-11-01', to: '2026-11-25' });
    expect(resolveRange('this_month', 'UTC', NOW)).toEqual({
      from: '2026-11-01',
      to: '2026-12-01',
      lastDay: '2026-11-30',
      days: 30,
    });
    expect(resolveRange('last_month', 'UTC', NOW)).toEqual({
      from: '2026-10-01',
      to: '2026-11-01',
      lastDay: '2026-10-31',
      days: 31,
    });
    // "12 months to date" is whole months: from Dec 1 of the year before to today, 359 days here.
    expect(resolveRange('12m', 'UTC', NOW)).toEqual({
      from: '2025-12-01',
      to: '2026-11-25',
      lastDay: '2026-11-24',
      days: 359,
    });
    // January: last month is December of the year before.
    expect(resolveRange('last_month', 'UTC', new Date('2027-01-10T12:00:00Z'))).toMatchObject({
      from: '2026-12-01',
      to: '2027-01-01',
    });
  });

  it('takes calendar quarters and years, whole', () => {
    expect(resolveRange('this_quarter', 'UTC', NOW)).toMatchObject({
      from: '2026-10-01',
      lastDay: '2026-12-31',
      days: 92,
    });
    expect(resolveRange('last_quarter', 'UTC', NOW)).toMatchObject({
      from: '2026-07-01',
      lastDay: '2026-09-30',
      days: 92,
    });
    expect(resolveRange('this_year', 'UTC', NOW)).toMatchObject({
      from: '2026-01-01',
      lastDay: '2026-12-31',
      days: 365,
    });
    expect(resolveRange('last_year', 'UTC', NOW)).toMatchObject({ from: '2025-01-01', to: '2026-01-01' });
    // In January, last quarter is the fourth of the year before.
    expect(resolveRange('last_quarter', 'UTC', new Date('2027-01-02T12:00:00Z'))).toMatchObject({
      from: '2026-10-01',
      lastDay: '2026-12-31',
    });
  });

  it('computes calendar presets in the team’s timezone, not the browser’s or UTC', () => {
    // 02:00 UTC on Oct 1 is still Sep 30 in Los Angeles: this quarter is July to September there.
    const early = new Date('2026-10-01T02:00:00Z');
    expect(resolveRange('this_quarter', 'America/Los_Angeles', early)).toMatchObject({
      from: '2026-07-01',
      lastDay: '2026-09-30',
    });
    expect(resolveRange('this_quarter', 'UTC', early)).toMatchObject({ from: '2026-10-01' });
    expect(resolveRange('mtd', 'America/Los_Angeles', early)).toMatchObject({
      from: '2026-09-01',
      lastDay: '2026-09-30',
    });
  });

  it('uses a custom range as given (both days inclusive), and falls back to 30 days when it cannot be asked for', () => {
    expect(resolveRange('custom', 'UTC', NOW, { from: '2026-03-01', to: '2026-03-31' })).toEqual({
      from: '2026-03-01',
      to: '2026-04-01',
      lastDay: '2026-03-31',
      days: 31,
    });
    expect(resolveRange('custom', 'UTC', NOW, { from: '2026-03-31', to: '2026-03-01' })).toMatchObject({
      from: '2026-10-26',
      days: 30,
    });
  });

  it('accepts 366 days and refuses 367, and a last day before the first', () => {
    expect(customRangeProblem('2025-01-01', '2026-01-01')).toBeNull();
    expect(customRangeProblem('2025-01-01', '2026-01-02')).toMatch(/at most 366 days/);
    expect(customRangeProblem('2026-01-02', '2026-01-01')).toMatch(/must not be before/);
    expect(customRangeProblem(undefined, '2026-01-01')).toMatch(/Choose/);
  });

  it('picks a bucket that keeps the number of bars readable', () => {
    expect(bucketFor(1)).toBe('hour');
    expect(bucketFor(30)).toBe('day');
    expect(bucketFor(90)).toBe('week');
    expect(bucketFor(359)).toBe('month');
  });
});
