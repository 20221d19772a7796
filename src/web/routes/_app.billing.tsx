import { createFileRoute } from '@tanstack/react-router';
import { LEDGER_KINDS } from '../../contract/values.ts';
import { balanceQueryOptions, ledgerQueryOptions } from '../queries/billing.ts';
import { oneOf, searchParams } from '../search-params/fields.ts';
import { BillingPage } from './-components/billing/billing-page.tsx';

/** `?kind=` shows one kind of entry; an unknown one is dropped, not an error page. */
const BillingSearch = searchParams({ kind: oneOf(LEDGER_KINDS) });

/** The team's balance and its ledger: every grant, hold, charge and release, newest first. */
export const Route = createFileRoute('/_app/billing')({
  validateSearch: BillingSearch,
  loaderDeps: ({ search }) => ({ kind: search.kind }),
  loader: ({ context: { queryClient }, deps }) => {
    void queryClient.prefetchInfiniteQuery(ledgerQueryOptions(deps.kind));
    return queryClient.ensureQueryData(balanceQueryOptions());
  },
  component: BillingRoute,
});

function BillingRoute() {
  const { kind } = Route.useSearch();
  const navigate = Route.useNavigate();
  return <BillingPage kind={kind} onKind={(next) => void navigate({ search: next ? { kind: next } : {} })} />;
}
