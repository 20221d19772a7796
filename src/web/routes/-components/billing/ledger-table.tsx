import { Link } from '@tanstack/react-router';
import type { LedgerEntry } from '../../../../contract/billing.ts';
import { Badge } from '../../../components/badge.tsx';
import { cx } from '../../../components/cx.ts';
import { ColumnHeading, DataTable, TABLE_CELL } from '../../../components/data-table.tsx';
import { formatCredits } from '../../../format/credits.ts';
import { formatDateTime } from '../../../format/date-time.ts';
import { toolLabel } from '../../../format/tool-label.ts';
import { LEDGER_KIND_LABELS, signedCredits } from './ledger-labels.ts';

/** Ledger entries, newest first: what moved the balance, by how much, and what it was after. */
export function LedgerTable({ entries }: { entries: readonly LedgerEntry[] }) {
  return (
    <DataTable
      caption="Ledger entries"
      minWidth="min-w-[52rem]"
      headings={
        <>
          <ColumnHeading>When</ColumnHeading>
          <ColumnHeading>Entry</ColumnHeading>
          <ColumnHeading>For</ColumnHeading>
          <ColumnHeading className="text-right">Change</ColumnHeading>
          <ColumnHeading className="text-right">Balance after</ColumnHeading>
        </>
      }
    >
      {entries.map((entry) => (
        <LedgerRow key={entry.id} entry={entry} />
      ))}
    </DataTable>
  );
}

function LedgerRow({ entry }: { entry: LedgerEntry }) {
  return (
    <tr>
      <td className={`${TABLE_CELL} whitespace-nowrap text-zinc-600 dark:text-zinc-400`}>
        <time dateTime={entry.created_at}>{formatDateTime(entry.created_at)}</time>
      </td>
      <th scope="row" className={`${TABLE_CELL} text-left font-normal`}>
        <Badge tone={entry.kind === 'grant' || entry.kind === 'refund' ? 'success' : 'neutral'}>
          {LEDGER_KIND_LABELS[entry.kind]}
        </Badge>
      </th>
      <td className={`${TABLE_CELL} min-w-0`}>
        <EntrySubject entry={entry} />
      </td>
      <td
        className={cx(
          TABLE_CELL,
          'text-right font-medium whitespace-nowrap tabular-nums',
          entry.delta_cents > 0
            ? 'text-emerald-700 dark:text-emerald-400'
            : 'text-zinc-950 dark:text-zinc-100',
        )}
      >
        {signedCredits(entry.delta_cents)}
      </td>
      <td
        className={`${TABLE_CELL} text-right whitespace-nowrap tabular-nums text-zinc-600 dark:text-zinc-400`}
      >
        {formatCredits(entry.balance_after_cents)}
      </td>
    </tr>
  );
}

/** The job an entry belongs to (a link) with the refund's reason if any, or the note of a grant or adjustment. */
function EntrySubject({ entry }: { entry: LedgerEntry }) {
  if (entry.job_id) {
    return (
      <span className="flex flex-col">
        <Link
          to="/jobs/$jobId"
          params={{ jobId: entry.job_id }}
          className="font-mono text-xs text-zinc-950 underline decoration-zinc-300 underline-offset-2 hover:decoration-zinc-950 dark:text-zinc-100 dark:decoration-zinc-600 dark:hover:decoration-zinc-100"
        >
          {entry.job_id}
        </Link>
        {entry.tool && (
          <span className="text-xs text-zinc-600 dark:text-zinc-400">
            {toolLabel(entry.tool)}
            {entry.model ? ` · ${entry.model}` : ''}
          </span>
        )}
        {entry.note && <span className="text-xs text-zinc-700 dark:text-zinc-300">{entry.note}</span>}
      </span>
    );
  }
  return <span className="text-zinc-700 dark:text-zinc-300">{entry.note ?? '—'}</span>;
}
