import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import type { LedgerKind } from '../../contract/billing.ts';
import { api } from '../api/client.ts';
import { teamScoped } from '../team/current-team.ts';

/** The team's balance, and its ledger (every change of the balance), newest first. */
const billingKeys = {
  get balance() {
    return teamScoped(['billing', 'balance'] as const);
  },
  ledger: (kind: LedgerKind | undefined) => teamScoped(['billing', 'ledger', kind ?? 'all'] as const),
  refunds: (jobId: string) => teamScoped(['billing', 'refunds', jobId] as const),
};

const LEDGER_PAGE_SIZE = 50;

export function balanceQueryOptions() {
  return queryOptions({
    queryKey: billingKeys.balance,
    queryFn: () => api().getBalance(),
    // Jobs hold and settle credits at any time: a page opened again asks again, unless just read.
    staleTime: 5_000,
  });
}

export function ledgerQueryOptions(kind: LedgerKind | undefined) {
  return infiniteQueryOptions({
    queryKey: billingKeys.ledger(kind),
    queryFn: ({ pageParam }) =>
      api().listLedgerEntries({
        query: {
          limit: LEDGER_PAGE_SIZE,
          ...(kind ? { kind } : {}),
          ...(pageParam ? { cursor: pageParam } : {}),
        },
      }),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.next_cursor,
    staleTime: 5_000,
  });
}

/** The credits given back for one job (the operator's refunds, with their reasons), oldest last. */
export function jobRefundsQueryOptions(jobId: string) {
  return queryOptions({
    queryKey: billingKeys.refunds(jobId),
    queryFn: async () =>
      (await api().listLedgerEntries({ query: { job: jobId, kind: 'refund', limit: 100 } })).data,
    // Refunds are rare and made by hand: a job opened again within the minute need not ask again.
    staleTime: 60_000,
  });
}
