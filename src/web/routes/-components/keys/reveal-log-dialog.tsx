import { useQuery } from '@tanstack/react-query';
import type { ApiKey } from '../../../../contract/api-keys.ts';
import { Alert } from '../../../components/alert.tsx';
import { Button } from '../../../components/button.tsx';
import { errorMessage } from '../../../components/confirm-dialog.tsx';
import { cx } from '../../../components/cx.ts';
import { ColumnHeading, DataTable, TABLE_CELL } from '../../../components/data-table.tsx';
import { LoadingNote } from '../../../components/loading-note.tsx';
import { ModalDialog } from '../../../components/modal-dialog.tsx';
import { formatDateTime } from '../../../format/date-time.ts';
import { apiKeyRevealsQueryOptions } from '../../../queries/api-keys.ts';
import { PersonAvatar } from './person-avatar.tsx';
import { personName } from './person-name.ts';

/** Who showed the key again, when and from where (address and browser), newest first. */
export function RevealLogDialog({ apiKey, onClose }: { apiKey: ApiKey; onClose: () => void }) {
  const reveals = useQuery(apiKeyRevealsQueryOptions(apiKey.id));
  return (
    <ModalDialog
      size="lg"
      title={`Reveal log of “${apiKey.name}”`}
      description="Every time someone showed this key again."
      onClose={onClose}
      footer={
        <Button variant="secondary" onClick={onClose} data-autofocus>
          Close
        </Button>
      }
    >
      {reveals.isPending ? (
        <LoadingNote>Loading…</LoadingNote>
      ) : reveals.isError ? (
        <Alert tone="error">{errorMessage(reveals.error)}</Alert>
      ) : reveals.data.data.length === 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">Nobody has revealed this key yet.</p>
      ) : (
        <DataTable
          caption="Reveals, newest first"
          minWidth="min-w-[30rem]"
          headings={
            <>
              <ColumnHeading>Who</ColumnHeading>
              <ColumnHeading>When</ColumnHeading>
              <ColumnHeading>From</ColumnHeading>
            </>
          }
        >
          {reveals.data.data.map((reveal) => (
            <tr key={reveal.id}>
              <td className={TABLE_CELL}>
                <span className="flex items-center gap-2">
                  <PersonAvatar person={reveal.person} />
                  <span className="min-w-0">
                    <span className="block truncate font-medium">{personName(reveal.person)}</span>
                    <span className="block truncate text-xs text-zinc-600 dark:text-zinc-400">
                      {reveal.person.email}
                    </span>
                  </span>
                </span>
              </td>
              <td className={cx(TABLE_CELL, 'whitespace-nowrap')}>{formatDateTime(reveal.revealed_at)}</td>
              <td className={TABLE_CELL}>
                <span className="font-mono text-xs">{reveal.ip_address ?? 'unknown address'}</span>
                {reveal.user_agent && (
                  <span
                    className="block max-w-56 truncate text-xs text-zinc-600 dark:text-zinc-400"
                    title={reveal.user_agent}
                  >
                    {reveal.user_agent}
                  </span>
                )}
              </td>
            </tr>
          ))}
        </DataTable>
      )}
    </ModalDialog>
  );
}
