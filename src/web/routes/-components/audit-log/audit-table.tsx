import { AUDIT_ACTION_LABELS } from '../../../../contract/audit-actions.ts';
import type { AuditEntry } from '../../../../contract/audit-log.ts';
import { Badge } from '../../../components/badge.tsx';
import { ColumnHeading, DataTable, TABLE_CELL } from '../../../components/data-table.tsx';
import { formatDateTime } from '../../../format/date-time.ts';

const MUTED = 'text-xs text-zinc-600 dark:text-zinc-400';

/** Audit entries, newest first: when, what (in words, the raw action beneath), who, on what, from where. */
export function AuditTable({ entries }: { entries: readonly AuditEntry[] }) {
  return (
    <DataTable
      caption="Audit log entries"
      minWidth="min-w-[64rem]"
      headings={
        <>
          <ColumnHeading>When</ColumnHeading>
          <ColumnHeading>Action</ColumnHeading>
          <ColumnHeading>Who</ColumnHeading>
          <ColumnHeading>Target</ColumnHeading>
          <ColumnHeading>From</ColumnHeading>
          <ColumnHeading>Details</ColumnHeading>
        </>
      }
    >
      {entries.map((entry) => (
        <AuditRow key={entry.id} entry={entry} />
      ))}
    </DataTable>
  );
}

function AuditRow({ entry }: { entry: AuditEntry }) {
  return (
    <tr>
      <td className={`${TABLE_CELL} whitespace-nowrap text-zinc-600 dark:text-zinc-400`}>
        <time dateTime={entry.occurred_at}>{formatDateTime(entry.occurred_at)}</time>
      </td>
      <th scope="row" className={`${TABLE_CELL} text-left font-normal`}>
        <span className="flex flex-col items-start gap-1">
          <Badge tone={toneOf(entry.action)}>{AUDIT_ACTION_LABELS[entry.action]}</Badge>
          <code className={`${MUTED} font-mono`}>{entry.action}</code>
        </span>
      </th>
      <td className={TABLE_CELL}>
        <Actor entry={entry} />
      </td>
      <td className={TABLE_CELL}>
        {entry.target ? (
          <span className="flex flex-col">
            <span className="text-zinc-900 dark:text-zinc-100">{entry.target.label ?? entry.target.id}</span>
            <span className={`${MUTED} font-mono`}>
              {entry.target.type} {entry.target.id}
            </span>
          </span>
        ) : (
          '—'
        )}
      </td>
      <td className={TABLE_CELL}>
        <span className="flex max-w-56 flex-col">
          <span className="font-mono text-xs text-zinc-900 dark:text-zinc-100">
            {entry.client_address ?? '—'}
          </span>
          {entry.user_agent && (
            <span className={`${MUTED} truncate`} title={entry.user_agent}>
              {entry.user_agent}
            </span>
          )}
        </span>
      </td>
      <td className={`${TABLE_CELL} max-w-80`}>
        <Details details={entry.details} />
      </td>
    </tr>
  );
}

function Actor({ entry }: { entry: AuditEntry }) {
  const { actor } = entry;
  if (actor.type === 'operator')
    return <span className="text-zinc-700 dark:text-zinc-300">Server operator</span>;
  if (actor.type === 'system') return <span className="text-zinc-700 dark:text-zinc-300">Media Console</span>;
  if (actor.type === 'anonymous')
    return <span className="text-zinc-700 dark:text-zinc-300">Someone not signed in</span>;
  return (
    <span className="flex flex-col">
      <span className="text-zinc-900 dark:text-zinc-100">
        {actor.person ? actor.person.display_name : 'A key with no owner'}
      </span>
      {actor.person && <span className={MUTED}>{actor.person.email}</span>}
      {actor.api_key && (
        <span className={MUTED}>
          with key {actor.api_key.name ?? ''} <code className="font-mono">{actor.api_key.id}</code>
        </span>
      )}
    </span>
  );
}

/** The details as `name: value` lines (values of nested objects as compact JSON). */
function Details({ details }: { details: Record<string, unknown> }) {
  const lines = Object.entries(details);
  if (lines.length === 0) return <span className={MUTED}>—</span>;
  return (
    <dl className="flex min-w-56 flex-col gap-0.5 text-xs">
      {lines.map(([name, value]) => (
        <div key={name} className="flex gap-1.5">
          <dt className="shrink-0 text-zinc-600 dark:text-zinc-400">{name.replaceAll('_', ' ')}:</dt>
          <dd className="min-w-0 break-words text-zinc-900 dark:text-zinc-100">
            {typeof value === 'string' ? value : JSON.stringify(value)}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** Money coming in reads as good news; everything else plainly. */
function toneOf(action: AuditEntry['action']): 'neutral' | 'success' {
  return action === 'credits.granted' || action === 'credits.refunded' ? 'success' : 'neutral';
}
