import type { LedgerKind } from '../../../../contract/billing.ts';
import { formatCredits } from '../../../format/credits.ts';

/** What each kind of entry is called here: a `settle` is the charge a finished job comes to. */
export const LEDGER_KIND_LABELS: Record<LedgerKind, string> = {
  grant: 'Credits added',
  hold: 'Held for a job',
  settle: 'Charge',
  release: 'Hold returned',
  refund: 'Refund',
  adjustment: 'Adjustment',
};

/** "+500 credits" or "−3 credits": the sign says which way the balance moved. */
export function signedCredits(delta: number): string {
  if (delta === 0) return formatCredits(0);
  return `${delta > 0 ? '+' : '−'}${formatCredits(Math.abs(delta))}`;
}
