import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../../client/api-error.ts';
import { spendLimitNote } from './submit-failure.tsx';

const refusal = (details: Record<string, unknown>) =>
  new ApiError({
    status: 402,
    code: 'spend_limit_exceeded',
    message: "This API key's spend limit is 2 credits a day: 0 credits are left until it resets at …",
    details,
  });

describe('spendLimitNote', () => {
  it('says which limit stopped the run, what is left and when it resets', () => {
    const resets = '2026-11-28T00:00:00.000Z';
    const when = new Date(resets).toLocaleString(undefined, {
      weekday: 'short',
      day: 'numeric',
      month: 'short',
      hour: '2-digit',
      minute: '2-digit',
    });
    expect(
      spendLimitNote(refusal({ remaining: 0, resets_at: resets, limit: 2, period: 'day', budget_id: null })),
    ).toBe(`This key's limit (2 credits a day) has 0 left and resets ${when}.`);
    expect(
      spendLimitNote(
        refusal({ remaining: 3, resets_at: resets, limit: 10, period: 'week', budget_id: 'bud_1' }),
      ),
    ).toBe(`The budget (10 credits a week) has 3 left and resets ${when}.`);
  });

  it('is nothing for other refusals', () => {
    expect(
      spendLimitNote(new ApiError({ status: 402, code: 'insufficient_balance', message: 'x' })),
    ).toBeNull();
    expect(spendLimitNote(new Error('x'))).toBeNull();
  });
});
