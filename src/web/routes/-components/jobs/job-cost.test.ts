import { describe, expect, it } from 'vitest';
import { freshJob } from '../../../../contract/test-fixtures.ts';
import { chargedText, jobCost } from './job-cost.ts';

const priced = (overrides: Parameters<typeof freshJob>[0]) => {
  const job = freshJob(overrides);
  return {
    ...job,
    estimated_cost_cents: 60,
    pricing: { ...job.pricing, estimated: 60 },
  };
};

describe('what a job cost', () => {
  it('shows the estimate only while the job is under way', () => {
    expect(jobCost(priced({ status: 'running' })).text).toBe('~60');
    expect(chargedText(priced({ status: 'running' }))).toBeNull();
  });

  it('shows what a finished job was charged, and a refund for one that failed or was cancelled', () => {
    const cancelled = priced({ status: 'cancelled', actual_cost_cents: null });
    expect(jobCost(cancelled).text).toBe('0 (not charged)');
    expect(chargedText(cancelled)).toBe('0 credits (not charged)');
    expect(chargedText(priced({ status: 'failed', actual_cost_cents: null }))).toBe(
      '0 credits (not charged)',
    );
    const done = priced({ status: 'completed', actual_cost_cents: 42 });
    expect(jobCost(done).text).toBe('42');
    expect(chargedText(done)).toBe('42 credits');
  });
});
