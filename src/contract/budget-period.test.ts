import { describe, expect, it } from 'vitest';
import { budgetForecast, budgetPeriod } from './budget-period.ts';

const at = (iso: string) => Date.parse(iso);
const span = (p: { start: Date; end: Date }) => [p.start.toISOString(), p.end.toISOString()];

describe('budgetPeriod', () => {
  it('a day runs from local midnight to the next', () => {
    expect(span(budgetPeriod('day', 1, 'UTC', at('2026-11-27T23:59:59Z')))).toEqual([
      '2026-11-27T00:00:00.000Z',
      '2026-11-28T00:00:00.000Z',
    ]);
    // 23:30 UTC is already the 28th in Paris (UTC+1 in November).
    expect(span(budgetPeriod('day', 1, 'Europe/Paris', at('2026-11-27T23:30:00Z')))).toEqual([
      '2026-11-27T23:00:00.000Z',
      '2026-11-28T23:00:00.000Z',
    ]);
  });

  it('a week starts on its reset weekday (1 Monday … 7 Sunday)', () => {
    // Friday 27 November 2026.
    expect(span(budgetPeriod('week', 1, 'UTC', at('2026-11-27T12:00:00Z')))).toEqual([
      '2026-11-23T00:00:00.000Z',
      '2026-11-30T00:00:00.000Z',
    ]);
    expect(span(budgetPeriod('week', 5, 'UTC', at('2026-11-27T12:00:00Z')))).toEqual([
      '2026-11-27T00:00:00.000Z',
      '2026-12-04T00:00:00.000Z',
    ]);
    expect(span(budgetPeriod('week', 6, 'UTC', at('2026-11-27T12:00:00Z')))).toEqual([
      '2026-11-21T00:00:00.000Z',
      '2026-11-28T00:00:00.000Z',
    ]);
    expect(span(budgetPeriod('week', 7, 'UTC', at('2026-11-29T00:00:00Z')))[0]).toBe(
      '2026-11-29T00:00:00.000Z',
    );
  });

  it('a month starts on its reset day, across the year end', () => {
    expect(span(budgetPeriod('month', 1, 'UTC', at('2026-11-27T12:00:00Z')))).toEqual([
      '2026-11-01T00:00:00.000Z',
      '2026-12-01T00:00:00.000Z',
    ]);
    expect(span(budgetPeriod('month', 28, 'UTC', at('2026-11-27T12:00:00Z')))).toEqual([
      '2026-10-28T00:00:00.000Z',
      '2026-11-28T00:00:00.000Z',
    ]);
    expect(span(budgetPeriod('month', 15, 'UTC', at('2027-01-03T00:00:00Z')))).toEqual([
      '2026-12-15T00:00:00.000Z',
      '2027-01-15T00:00:00.000Z',
    ]);
  });

  it('counts periods across a daylight-saving change on the wall clock', () => {
    // Paris moves to summer time on Sunday 29 March 2026: that day has 23 hours.
    const day = budgetPeriod('day', 1, 'Europe/Paris', at('2026-03-29T12:00:00Z'));
    expect(span(day)).toEqual(['2026-03-28T23:00:00.000Z', '2026-03-29T22:00:00.000Z']);
    expect(day.end.getTime() - day.start.getTime()).toBe(23 * 3_600_000);
    // The week holding it starts at a winter midnight and ends at a summer one.
    expect(span(budgetPeriod('week', 1, 'Europe/Paris', at('2026-03-29T12:00:00Z')))).toEqual([
      '2026-03-22T23:00:00.000Z',
      '2026-03-29T22:00:00.000Z',
    ]);
    // New York falls back on 1 November 2026 (at 2:00): the month starts at EDT midnight and ends at EST midnight.
    const month = budgetPeriod('month', 1, 'America/New_York', at('2026-11-15T12:00:00Z'));
    expect(span(month)).toEqual(['2026-11-01T04:00:00.000Z', '2026-12-01T05:00:00.000Z']);
  });
});

describe('budgetForecast', () => {
  const start = at('2026-11-01T00:00:00Z');
  const end = at('2026-12-01T00:00:00Z');
  it('runs out at the rate so far', () => {
    // 10 of 40 credits in 2 days: 5 a day, 30 left, 6 more days.
    expect(budgetForecast(10, 40, start, end, at('2026-11-03T00:00:00Z'))).toEqual({
      runs_out_at: '2026-11-09T00:00:00.000Z',
      credits_per_day: 5,
    });
  });
  it('is null when nothing was spent or the budget lasts to the reset, now when it is used up', () => {
    expect(budgetForecast(0, 40, start, end, at('2026-11-03T00:00:00Z')).runs_out_at).toBeNull();
    expect(budgetForecast(1, 40, start, end, at('2026-11-03T00:00:00Z')).runs_out_at).toBeNull();
    expect(budgetForecast(40, 40, start, end, at('2026-11-03T00:00:00Z')).runs_out_at).toBe(
      '2026-11-03T00:00:00.000Z',
    );
  });
});
