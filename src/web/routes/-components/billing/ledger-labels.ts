import type { LedgerKind } from '../../../../contract/billing.ts';

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
export function signedCredits(delta: number, format: (credits: number) => string): string {
  if (delta === 0) return format(0);
  return `${delta > 0 ? '+' : '−'}${format(Math.abs(delta))}`;
}
