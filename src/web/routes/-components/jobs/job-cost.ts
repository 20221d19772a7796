import type { Job } from '../../../../contract/jobs.ts';
import { isTerminalJobStatus } from '../../../../contract/values.ts';
import { formatCredits } from '../../../format/credits.ts';

const whole = new Intl.NumberFormat('en-US');

/**
 * Credits a finished job was charged, or null while it runs. A failed or cancelled job releases what it
 * held, so a finished job without a charge cost nothing (the server leaves `actual` null for those).
 */
export function chargedCredits(job: Job): number | null {
  if (!isTerminalJobStatus(job.status)) return null;
  if (job.pricing.cached) return 0;
  return job.actual_cost_cents ?? 0;
}

/**
 * What a finished job cost, in words: "12 credits", "0 credits (not charged)" for one that failed or was
 * cancelled (its hold was returned), "0 credits (from the cache)". Refunds of a charge are the ledger's.
 */
export function chargedText(job: Job): string | null {
  const charged = chargedCredits(job);
  if (charged === null) return null;
  if (charged > 0) return formatCredits(charged);
  if (job.pricing.cached) return '0 credits (from the cache)';
  return job.status === 'completed' ? formatCredits(0) : '0 credits (not charged)';
}

/** The cost cell: what a finished job was charged, else "~" the estimate of one still under way. */
export function jobCost(job: Job): { text: string; title: string } {
  const charged = chargedCredits(job);
  if (charged !== null) {
    const notCharged = charged === 0 && job.status !== 'completed';
    return {
      text: notCharged ? '0 (not charged)' : whole.format(charged),
      title: `Charged: ${chargedText(job)}`,
    };
  }
  return {
    text: `~${whole.format(job.estimated_cost_cents)}`,
    title: `Estimated ${formatCredits(job.estimated_cost_cents)}; charged when the job finishes`,
  };
}
