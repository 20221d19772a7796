import { describe, expect, it } from 'vitest';
import { formatCredits, formatCreditsAndDollars, formatDollars } from './credits.ts';

describe('credit formatting', () => {
  it('shows a balance as credits and dollars', () => {
    expect(formatCreditsAndDollars(1000)).toBe('1,000 credits ($10.00)');
    expect(formatCreditsAndDollars(0)).toBe('0 credits ($0.00)');
    expect(formatCreditsAndDollars(123456)).toBe('123,456 credits ($1,234.56)');
  });

  it('uses the singular for one credit', () => {
    expect(formatCredits(1)).toBe('1 credit');
  });

  it('keeps fractional unit prices readable', () => {
    expect(formatCredits(0.25)).toBe('0.25 credits');
    expect(formatDollars(0.25)).toBe('$0.0025');
  });
});
