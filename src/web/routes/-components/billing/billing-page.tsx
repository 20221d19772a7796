import { useInfiniteQuery, useSuspenseQuery } from '@tanstack/react-query';
import { type ReactNode, useId } from 'react';
import type { LedgerKind } from '../../../../contract/billing.ts';
import { LEDGER_KINDS } from '../../../../contract/values.ts';
import { Button } from '../../../components/button.tsx';
import { EmptyState } from '../../../components/empty-state.tsx';
import { FIELD_SELECT, LabelledField } from '../../../components/labelled-field.tsx';
import { LoadFailed } from '../../../components/load-failed.tsx';
import { LoadMoreButton } from '../../../components/load-more-button.tsx';
import { LoadingNote } from '../../../components/loading-note.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { formatCredits, formatCreditsAndDollars } from '../../../format/credits.ts';
import { formatDateTime } from '../../../format/date-time.ts';
import { balanceQueryOptions, ledgerQueryOptions } from '../../../queries/billing.ts';
import { AddCredits } from './add-credits.tsx';
import { LEDGER_KIND_LABELS } from './ledger-labels.ts';
import { LedgerTable } from './ledger-table.tsx';

interface BillingPageProps {
  kind: LedgerKind | undefined;
  onKind: (kind: LedgerKind | undefined) => void;
}

/** The team's balance, what running jobs hold of it, and the ledger behind both. */
export function BillingPage({ kind, onKind }: BillingPageProps) {
  const { data: balance } = useSuspenseQuery(balanceQueryOptions());
  return (
    <>
      <PageHeader
        title="Billing"
        description="Your team's credits, and every change to them: credits added, held for a job, charged and returned."
      />
      <div className="mb-8 grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3">
        <Figure label="Available" value={formatCreditsAndDollars(balance.balance_cents)}>
          What new jobs can spend, as of {formatDateTime(balance.as_of)}.
        </Figure>
        <Figure label="Held by unfinished jobs" value={formatCredits(balance.held_cents)}>
          Each job holds its estimate while it runs; when it ends, the hold comes back and it is charged what
          it cost.
        </Figure>
      </div>
      <AddCredits topUp={balance.top_up} balanceCents={balance.balance_cents} />
      <div className="mb-4 flex flex-wrap items-end justify-between gap-3">
        <h2 className="text-lg font-semibold text-zinc-950 dark:text-white">Ledger</h2>
        <LabelledField label="Show" className="w-56">
          {(id) => (
            <select
              id={id}
              className={FIELD_SELECT}
              value={kind ?? ''}
              onChange={(e) => onKind((e.target.value || undefined) as LedgerKind | undefined)}
            >
              <option value="">All entries</option>
              {LEDGER_KINDS.map((value) => (
                <option key={value} value={value}>
                  {LEDGER_KIND_LABELS[value]}
                </option>
              ))}
            </select>
          )}
        </LabelledField>
      </div>
      <Ledger kind={kind} onClear={() => onKind(undefined)} />
    </>
  );
}

function Figure({ label, value, children }: { label: string; value: string; children: ReactNode }) {
  const labelId = useId();
  return (
    <article
      aria-labelledby={labelId}
      className="rounded-xl border border-zinc-200 bg-white p-4 shadow-sm dark:border-zinc-800 dark:bg-zinc-900"
    >
      <p id={labelId} className="text-sm font-medium text-zinc-600 dark:text-zinc-400">
        {label}
      </p>
      <p className="mt-1 text-xl font-semibold tabular-nums text-zinc-950 dark:text-white">{value}</p>
      <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">{children}</p>
    </article>
  );
}

function Ledger({ kind, onClear }: { kind: LedgerKind | undefined; onClear: () => void }) {
  const query = useInfiniteQuery(ledgerQueryOptions(kind));
  const entries = query.data?.pages.flatMap((page) => page.data) ?? [];
  if (query.isPending) return <LoadingNote className="py-16">Loading the ledger…</LoadingNote>;
  if (query.isError) {
    return (
      <LoadFailed
        title="The ledger could not be loaded"
        error={query.error}
        onRetry={() => void query.refetch()}
      />
    );
  }
  if (entries.length === 0) {
    return kind ? (
      <EmptyState
        title={`No entries of this kind: ${LEDGER_KIND_LABELS[kind].toLowerCase()}`}
        action={
          <Button variant="secondary" onClick={onClear}>
            Show all entries
          </Button>
        }
      >
        Other kinds of entries may be there.
      </EmptyState>
    ) : (
      <EmptyState title="No entries yet">
        Credits added to your team and what jobs cost appear here.
      </EmptyState>
    );
  }
  return (
    <>
      <LedgerTable entries={entries} />
      <LoadMoreButton query={query} />
    </>
  );
}
