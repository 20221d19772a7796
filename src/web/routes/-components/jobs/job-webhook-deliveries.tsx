import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { Job, WebhookDelivery } from '../../../../contract/jobs.ts';
import { cx } from '../../../components/cx.ts';
import { ColumnHeading, DataTable, TABLE_CELL } from '../../../components/data-table.tsx';
import { LoadFailed } from '../../../components/load-failed.tsx';
import { LoadingNote } from '../../../components/loading-note.tsx';
import { formatDateTime } from '../../../format/date-time.ts';
import { jobDeliveriesQueryOptions, jobKeys } from '../../../queries/jobs.ts';

const STATUS_TONE: Record<WebhookDelivery['status'], string> = {
  succeeded: 'text-emerald-700 dark:text-emerald-300',
  failed: 'text-red-700 dark:text-red-300',
  pending: 'text-zinc-600 dark:text-zinc-400',
};

/**
 * Attempts to call the job's webhook. Loaded with the drawer but on its own (a slow answer does not hold
 * the details), reloaded when the job finishes (that is when deliveries start) and while a retry is due.
 */
export function JobWebhookDeliveries({ job }: { job: Job }) {
  const queryClient = useQueryClient();
  const deliveries = useQuery({
    ...jobDeliveriesQueryOptions(job.id),
    refetchInterval: (query) =>
      query.state.data?.some((d) => d.status === 'pending' || d.next_attempt_at) ? 5_000 : false,
  });
  const seenStatus = useRef(job.status);
  useEffect(() => {
    if (seenStatus.current === job.status) return;
    seenStatus.current = job.status;
    void queryClient.invalidateQueries({ queryKey: jobKeys.deliveries(job.id) });
  }, [job.status, job.id, queryClient]);

  const webhookUrl = (job.input.options as { webhook_url?: unknown } | undefined)?.webhook_url;

  return (
    <section className="mb-6" aria-label="Webhook deliveries">
      <h3 className="mb-2 text-sm font-semibold">Webhook deliveries</h3>
      {deliveries.isPending ? (
        <LoadingNote>Loading deliveries…</LoadingNote>
      ) : deliveries.isError ? (
        <LoadFailed
          title="Could not load the deliveries"
          error={deliveries.error}
          onRetry={() => void deliveries.refetch()}
        />
      ) : deliveries.data.length === 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          {typeof webhookUrl === 'string'
            ? 'None yet: the webhook is called when the job finishes.'
            : 'This job has no webhook (options.webhook_url).'}
        </p>
      ) : (
        <DataTable
          caption="Calls to this job's webhook"
          minWidth="min-w-[32rem]"
          headings={
            <>
              <ColumnHeading>Attempt</ColumnHeading>
              <ColumnHeading>Event</ColumnHeading>
              <ColumnHeading>Result</ColumnHeading>
              <ColumnHeading>When</ColumnHeading>
            </>
          }
        >
          {deliveries.data.map((d) => (
            <tr key={d.id}>
              <td className={cx(TABLE_CELL, 'tabular-nums')}>{d.attempt}</td>
              <td className={TABLE_CELL}>{d.event_type}</td>
              <td className={TABLE_CELL}>
                <span className={cx('font-medium', STATUS_TONE[d.status])}>{d.status}</span>
                {d.response_status !== null && <span> · HTTP {d.response_status}</span>}
                {d.duration_ms !== null && <span> · {d.duration_ms} ms</span>}
                {d.error && <span className="block text-zinc-600 dark:text-zinc-400">{d.error}</span>}
                {d.next_attempt_at && (
                  <span className="block text-zinc-600 dark:text-zinc-400">
                    Next try {formatDateTime(d.next_attempt_at)}
                  </span>
                )}
              </td>
              <td className={cx(TABLE_CELL, 'whitespace-nowrap')}>{formatDateTime(d.created_at)}</td>
            </tr>
          ))}
        </DataTable>
      )}
    </section>
  );
}
