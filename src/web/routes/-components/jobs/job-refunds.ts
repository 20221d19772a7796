import { useQuery } from '@tanstack/react-query';
import type { Job } from '../../../../contract/jobs.ts';
import { formatCredits } from '../../../format/credits.ts';
import { jobRefundsQueryOptions } from '../../../queries/billing.ts';
import type { DetailItem } from './detail-list.tsx';
import { chargedCredits } from './job-cost.ts';

/**
 * The Pricing row of what was given back of a job's charge (the operator's refunds), with their reasons.
 * Asked only for a completed job that was charged (no other has anything to refund); no row when there
 * is no refund.
 */
export function useRefundItem(job: Job): DetailItem | null {
  const charged = job.status === 'completed' && (chargedCredits(job) ?? 0) > 0;
  const refunds = useQuery({ ...jobRefundsQueryOptions(job.id), enabled: charged });
  if (!charged) return null;
  if (refunds.isError) return { label: 'Refunded', value: 'Could not be checked' };
  const entries = refunds.data ?? [];
  if (entries.length === 0) return null;
  const total = entries.reduce((sum, entry) => sum + entry.delta_cents, 0);
  const reasons = entries.flatMap((entry) => (entry.note ? [entry.note] : [])).join('; ');
  return { label: 'Refunded', value: reasons ? `${formatCredits(total)}: ${reasons}` : formatCredits(total) };
}
