import { describe, expect, it } from 'vitest';
import type { Budget } from '../../../../contract/budgets.ts';
import {
  atTheCap,
  forecastWords,
  formatMoment,
  percentSpent,
  periodWords,
  scopeWords,
} from './budget-words.ts';

const budget = (overrides: Partial<Budget> = {}): Budget => ({
  id: 'bud_1',
  scope: { type: 'team', id: '00000000-0000-4000-8000-000000000001' },
  scope_name: 'Acme',
  credits: 100,
  period: 'month',
  reset_day: 1,
  mode: 'cap',
  thresholds: [50, 80, 100],
  alert_emails: [],
  alert_webhook_url: null,
  timezone: 'Europe/Paris',
  spent: 40,
  remaining: 60,
  period_start: '2026-10-31T23:00:00.000Z',
  resets_at: '2026-11-30T23:00:00.000Z',
  forecast: { runs_out_at: '2026-11-20T11:00:00.000Z', credits_per_day: 2.5 },
  alerts_sent: [],
  created_at: '2026-11-01T00:00:00.000Z',
  updated_at: '2026-11-01T00:00:00.000Z',
  ...overrides,
});

describe('budget words', () => {
  it('names periods with their reset day', () => {
    expect(periodWords('day', 1)).toBe('per day');
    expect(periodWords('week', 3)).toBe('per week from Wednesday');
    expect(periodWords('month', 1)).toBe('per month from the 1st');
    expect(periodWords('month', 22)).toBe('per month from the 22nd');
    expect(periodWords('month', 13)).toBe('per month from the 13th');
  });

  it('shows moments in the team time zone', () => {
    expect(formatMoment('2026-11-30T23:00:00.000Z', 'Europe/Paris')).toBe('Tue 1 Dec, 00:00');
  });

  it('says what the cap does, the forecast and the scope', () => {
    expect(percentSpent(budget())).toBe(40);
    expect(percentSpent(budget({ spent: 150 }))).toBe(150);
    expect(atTheCap(budget())).toContain('refused');
    expect(atTheCap(budget({ mode: 'alert' }))).toContain('keep running');
    expect(forecastWords(budget())).toBe('At the current rate (2.5 a day) it runs out Fri 20 Nov, 12:00.');
    expect(forecastWords(budget({ spent: 100 }))).toBe('Used up for this period.');
    expect(forecastWords(budget({ spent: 0, forecast: { runs_out_at: null, credits_per_day: 0 } }))).toBe(
      'Nothing spent yet this period.',
    );
    expect(scopeWords(budget())).toBe('Whole team');
    expect(scopeWords(budget({ scope: { type: 'key', id: 'key_1' }, scope_name: 'CI' }))).toBe('Key CI');
  });
});
