import type { Job } from '../../../../contract/jobs.ts';

const whole = new Intl.NumberFormat('en-US');

/** The cost cell: what was charged once known ("0" when cached), else "~" the estimate. */
export function jobCost(job: Job): { text: string; title: string } {
  if (job.pricing.cached) return { text: '0', title: 'Served from the result cache: free' };
  if (job.actual_cost_cents !== null) {
    return { text: whole.format(job.actual_cost_cents), title: `${job.actual_cost_cents} credits charged` };
  }
  return {
    text: `~${whole.format(job.estimated_cost_cents)}`,
    title: `Estimated ${job.estimated_cost_cents} credits; charged when the job settles`,
  };
}
