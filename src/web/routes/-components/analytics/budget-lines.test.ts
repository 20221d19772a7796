import { describe, expect, it } from 'vitest';
import type { Budget } from '../../../../contract/budgets.ts';
import { budgetLines } from './budget-lines.ts';

const budget = (id: string, overrides: Partial<Budget>): Budget =>
  ({
    id,
    scope: { type: 'team', id: 't' },
    credits: 100,
    period: 'day',
    mode: 'cap',
    ...overrides,
  }) as Budget;

describe('budgetLines', () => {
  const budgets = [
    budget('team-day', {}),
    budget('team-month', { period: 'month', mode: 'alert', credits: 3000 }),
    budget('key-day', { scope: { type: 'key', id: 'key_1' }, credits: 5 }),
  ];
  it('draws the budgets whose period is the bucket, the team ones on an unnarrowed chart', () => {
    expect(budgetLines(budgets, 'day', {})).toEqual([{ id: 'team-day', credits: 100, label: 'Cap 100' }]);
    expect(budgetLines(budgets, 'month', { capability: 'image' })).toEqual([
      { id: 'team-month', credits: 3000, label: 'Budget 3000' },
    ]);
    expect(budgetLines(budgets, 'hour', {})).toEqual([]);
  });
  it("draws a key's budget on a chart filtered to that key only", () => {
    expect(budgetLines(budgets, 'day', { api_key: 'key_1' }).map((l) => l.id)).toEqual(['key-day']);
    expect(budgetLines(budgets, 'day', { api_key: 'key_2' })).toEqual([]);
  });
});
