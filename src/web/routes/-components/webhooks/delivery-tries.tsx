import { Fragment, type ReactNode, useState } from 'react';
import type { WebhookDelivery } from '../../../../contract/jobs.ts';
import { Button } from '../../../components/button.tsx';
import { cx } from '../../../components/cx.ts';
import { ColumnHeading, DataTable, TABLE_CELL } from '../../../components/data-table.tsx';
import { formatDateTime } from '../../../format/date-time.ts';

const STATUS_TONE: Record<WebhookDelivery['status'], string> = {
  succeeded: 'text-emerald-700 dark:text-emerald-300',
  failed: 'text-red-700 dark:text-red-300',
  pending: 'text-zinc-600 dark:text-zinc-400',
};

const PRE =
  'max-h-48 overflow-auto rounded-md bg-zinc-50 p-2 font-mono text-xs break-all whitespace-pre-wrap text-zinc-800 dark:bg-zinc-950 dark:text-zinc-200';

function Headers({ headers }: { headers: Record<string, string> }) {
  const entries = Object.entries(headers);
  if (entries.length === 0) return <p className="text-xs text-zinc-600 dark:text-zinc-400">No headers.</p>;
  return <pre className={PRE}>{entries.map(([name, value]) => `${name}: ${value}`).join('\n')}</pre>;
}

function Body({ body, truncated }: { body: string; truncated: boolean }) {
  if (body === '') return <p className="text-xs text-zinc-600 dark:text-zinc-400">Empty body.</p>;
  return (
    <>
      <pre className={PRE}>{body}</pre>
      {truncated && (
        <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">Only the first 4 KB are kept.</p>
      )}
    </>
  );
}

/** What one try sent and got back: the log of a try, opened from its row. */
function TryLog({ delivery }: { delivery: WebhookDelivery }) {
  const { request, response } = delivery;
  return (
    <div className="grid gap-4 py-2 text-sm md:grid-cols-2">
      <div className="min-w-0">
        <h4 className="mb-1 font-medium">Request</h4>
        {request ? (
          <div className="flex flex-col gap-2">
            <p className="font-mono text-xs break-all">POST {request.url}</p>
            <Headers headers={request.headers} />
            <Body body={request.body} truncated={request.body_truncated} />
          </div>
        ) : (
          <p className="text-zinc-600 dark:text-zinc-400">Not sent.</p>
        )}
      </div>
      <div className="min-w-0">
        <h4 className="mb-1 font-medium">Response</h4>
        {response ? (
          <div className="flex flex-col gap-2">
            <p className="text-xs">
              HTTP {response.status}
              {delivery.duration_ms !== null && ` in ${delivery.duration_ms} ms`}
            </p>
            <Headers headers={response.headers} />
            <Body body={response.body} truncated={response.body_truncated} />
          </div>
        ) : (
          <p className="text-zinc-600 dark:text-zinc-400">
            {delivery.status === 'pending' ? 'Waiting for an answer.' : (delivery.error ?? 'No answer.')}
          </p>
        )}
      </div>
    </div>
  );
}

/**
 * Tries of webhook deliveries, newest first, one row each; a row opens to show the request (headers with
 * the signatures, the body's first bytes) and the receiver's answer. `showTarget` adds where each went
 * (a job's own URL or a team endpoint), for a job that has both. `deliveryAction` adds a control to the
 * newest try of each delivery (one per `webhook_id`), such as sending it again.
 */
export function DeliveryTries({
  tries,
  caption,
  showTarget = false,
  deliveryAction,
}: {
  tries: WebhookDelivery[];
  caption: string;
  showTarget?: boolean;
  deliveryAction?: (newestTry: WebhookDelivery) => ReactNode;
}) {
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const toggle = (id: string) =>
    setOpen((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  const columns = showTarget ? 6 : 5;
  return (
    <DataTable
      caption={caption}
      minWidth="min-w-[32rem]"
      headings={
        <>
          <ColumnHeading>Attempt</ColumnHeading>
          <ColumnHeading>Event</ColumnHeading>
          {showTarget && <ColumnHeading>Sent to</ColumnHeading>}
          <ColumnHeading>Result</ColumnHeading>
          <ColumnHeading>When</ColumnHeading>
          <ColumnHeading>
            <span className="sr-only">Log</span>
          </ColumnHeading>
        </>
      }
    >
      {tries.map((d, index) => {
        const expanded = open.has(d.id);
        // Tries come newest first: the first row of a delivery is its newest try.
        const newest = tries.findIndex((other) => other.webhook_id === d.webhook_id) === index;
        const logId = `try-log-${d.id.replace(/\W/g, '-')}`;
        return (
          <Fragment key={d.id}>
            <tr>
              <td className={cx(TABLE_CELL, 'tabular-nums')}>{d.attempt}</td>
              <td className={TABLE_CELL}>{d.event_type}</td>
              {showTarget && (
                <td className={TABLE_CELL}>{d.endpoint_id ? 'Team endpoint' : 'Job webhook_url'}</td>
              )}
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
              <td className={cx(TABLE_CELL, 'whitespace-nowrap')}>
                {newest && deliveryAction?.(d)}
                {d.request !== undefined && (
                  <Button
                    variant="ghost"
                    size="sm"
                    aria-expanded={expanded}
                    aria-controls={expanded ? logId : undefined}
                    aria-label={`${expanded ? 'Hide' : 'Show'} the log of attempt ${d.attempt}`}
                    onClick={() => toggle(d.id)}
                  >
                    {expanded ? 'Hide' : 'Details'}
                  </Button>
                )}
              </td>
            </tr>
            {expanded && (
              <tr id={logId}>
                <td colSpan={columns} className={cx(TABLE_CELL, 'bg-zinc-50/50 dark:bg-zinc-900/50')}>
                  <TryLog delivery={d} />
                </td>
              </tr>
            )}
          </Fragment>
        );
      })}
    </DataTable>
  );
}
