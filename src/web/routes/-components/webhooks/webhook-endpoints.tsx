import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { WebhookDelivery } from '../../../../contract/jobs.ts';
import { WEBHOOK_ENDPOINT_LIMITS, type WebhookEndpoint } from '../../../../contract/webhook-endpoints.ts';
import { Alert } from '../../../components/alert.tsx';
import { Badge } from '../../../components/badge.tsx';
import { Button } from '../../../components/button.tsx';
import { ConfirmDialog, errorMessage } from '../../../components/confirm-dialog.tsx';
import { LoadFailed } from '../../../components/load-failed.tsx';
import { LoadingNote } from '../../../components/loading-note.tsx';
import { formatDateTime } from '../../../format/date-time.ts';
import { meQueryOptions } from '../../../queries/me.ts';
import {
  endpointDeliveriesQueryOptions,
  useDeleteWebhookEndpoint,
  useRecoverWebhookEndpoint,
  useRedeliverEndpointDelivery,
  useSaveWebhookEndpoint,
  webhookEndpointsQueryOptions,
} from '../../../queries/webhooks.ts';
import { DeliveryTries } from './delivery-tries.tsx';
import { EndpointFormDialog, EVENT_LABELS } from './endpoint-form-dialog.tsx';

const inProgress = (d: WebhookDelivery) => d.status === 'pending' || d.next_attempt_at !== null;

/**
 * An endpoint's recent deliveries, newest try first; owners and managers can send a delivery again (the
 * same webhook-id and payload, to the endpoint's current URL) once its tries have ended.
 */
function EndpointDeliveries({ endpoint, canManage }: { endpoint: WebhookEndpoint; canManage: boolean }) {
  const log = useQuery({
    ...endpointDeliveriesQueryOptions(endpoint.id),
    refetchInterval: (query) => (query.state.data?.some(inProgress) ? 2_000 : false),
  });
  const redeliver = useRedeliverEndpointDelivery(endpoint.id);
  if (log.isPending) return <LoadingNote>Loading deliveries…</LoadingNote>;
  if (log.isError) {
    return (
      <LoadFailed
        title="Could not load the deliveries"
        error={log.error}
        onRetry={() => void log.refetch()}
      />
    );
  }
  if (log.data.length === 0) {
    return <p className="text-sm text-zinc-600 dark:text-zinc-400">No deliveries yet.</p>;
  }
  const sentAgain = redeliver.isSuccess
    ? log.data.find((d) => d.webhook_id === redeliver.data.webhook_id && d.attempt === redeliver.data.attempt)
    : undefined;
  return (
    <div className="flex flex-col gap-2">
      {redeliver.isError && (
        <Alert tone="error" title="Not sent again">
          {errorMessage(redeliver.error)}
        </Alert>
      )}
      {sentAgain && (
        <p role="status" className="text-sm text-zinc-600 dark:text-zinc-400">
          Attempt {sentAgain.attempt}{' '}
          {sentAgain.status === 'pending' ? 'queued' : `sent: ${sentAgain.status}`}.
        </p>
      )}
      <DeliveryTries
        caption="Recent deliveries to this endpoint"
        tries={log.data}
        deliveryAction={
          canManage
            ? (newest) => {
                const busy = inProgress(newest);
                const off = !endpoint.enabled;
                return (
                  <Button
                    variant="ghost"
                    size="sm"
                    pending={redeliver.isPending && redeliver.variables === newest.webhook_id}
                    disabled={busy || off}
                    title={
                      off
                        ? 'Turn the endpoint on to send deliveries again.'
                        : busy
                          ? 'This delivery is still in progress.'
                          : undefined
                    }
                    aria-label={`Send the ${newest.event_type} event of attempt ${newest.attempt} again`}
                    onClick={() => redeliver.mutate(newest.webhook_id)}
                  >
                    Send again
                  </Button>
                );
              }
            : undefined
        }
      />
    </div>
  );
}

/**
 * The events an endpoint missed while it was off. Once it is on again, owners and managers are offered
 * to send them (each once); while it is off, they are told the events wait for it.
 */
function MissedEvents({ endpoint, canManage }: { endpoint: WebhookEndpoint; canManage: boolean }) {
  const recover = useRecoverWebhookEndpoint(endpoint.id);
  const count = endpoint.missed_events;
  const events = (n: number) => `${n} ${n === 1 ? 'event' : 'events'}`;
  const days = WEBHOOK_ENDPOINT_LIMITS.recoverWindowDays;
  if (recover.isSuccess && count === 0) {
    return (
      <Alert tone="success" className="mt-3">
        {events(recover.data.queued)} queued: they show in the recent deliveries as they are sent.
      </Alert>
    );
  }
  if (count === 0) return null;
  if (!endpoint.enabled) {
    return (
      <p className="mt-3 text-sm text-zinc-600 dark:text-zinc-400">
        {events(count)} missed so far (last {days} days).
        {canManage && ' Once it is back on you can send them.'}
      </p>
    );
  }
  return (
    <Alert tone="info" className="mt-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span>
          {count === 1 ? '1 event was' : `${count} events were`} missed while this endpoint was off (last{' '}
          {days} days).
        </span>
        {canManage && (
          <Button variant="secondary" size="sm" pending={recover.isPending} onClick={() => recover.mutate()}>
            Send them
          </Button>
        )}
      </div>
      {recover.isError && (
        <p className="mt-2 text-red-700 dark:text-red-300">{errorMessage(recover.error)}</p>
      )}
      {recover.isSuccess && (
        <p className="mt-2">
          {events(recover.data.queued)} queued
          {recover.data.remaining > 0 && `; ${recover.data.remaining} more wait: send them again`}.
        </p>
      )}
    </Alert>
  );
}

function EndpointCard({ endpoint, canManage }: { endpoint: WebhookEndpoint; canManage: boolean }) {
  const save = useSaveWebhookEndpoint();
  const remove = useDeleteWebhookEndpoint();
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [showLog, setShowLog] = useState(false);
  const setEnabled = (enabled: boolean) => save.mutate({ id: endpoint.id, fields: { enabled } });
  return (
    <li className="rounded-xl border border-zinc-200 bg-white p-4 shadow-sm dark:border-zinc-800 dark:bg-zinc-900">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <p className="font-mono text-sm break-all">{endpoint.url}</p>
          {endpoint.description && (
            <p className="text-sm text-zinc-600 dark:text-zinc-400">{endpoint.description}</p>
          )}
        </div>
        <Badge tone={endpoint.enabled ? 'success' : 'muted'}>
          {endpoint.enabled ? 'Enabled' : 'Disabled'}
        </Badge>
      </div>
      {!endpoint.enabled && endpoint.disabled_reason && (
        <Alert tone="error" title="Disabled by the server" className="mt-3">
          {endpoint.disabled_reason}
          {endpoint.disabled_at && ` (${formatDateTime(endpoint.disabled_at)})`} Turn it back on once the
          receiver works again.
        </Alert>
      )}
      <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="text-zinc-600 dark:text-zinc-400">Events</dt>
        <dd>{endpoint.events.map((e) => EVENT_LABELS[e]).join(', ')}</dd>
        <dt className="text-zinc-600 dark:text-zinc-400">Last delivery</dt>
        <dd>
          {endpoint.last_delivery_at
            ? `${endpoint.last_delivery_status === 'delivered' ? 'Delivered' : 'Failed'}, ${formatDateTime(endpoint.last_delivery_at)}`
            : 'None yet'}
        </dd>
        <dt className="text-zinc-600 dark:text-zinc-400">Failures in a row</dt>
        <dd className="tabular-nums">
          {endpoint.failure_streak} of {WEBHOOK_ENDPOINT_LIMITS.failuresBeforeDisable} before it is disabled
        </dd>
      </dl>
      <div className="mt-3 flex flex-wrap gap-2">
        <Button variant="ghost" size="sm" aria-expanded={showLog} onClick={() => setShowLog((v) => !v)}>
          {showLog ? 'Hide deliveries' : 'Recent deliveries'}
        </Button>
        {canManage && (
          <>
            <Button variant="ghost" size="sm" onClick={() => setEditing(true)}>
              Edit
            </Button>
            <Button
              variant="ghost"
              size="sm"
              pending={save.isPending}
              onClick={() => setEnabled(!endpoint.enabled)}
            >
              {endpoint.enabled ? 'Disable' : 'Enable'}
            </Button>
            <Button variant="danger-ghost" size="sm" onClick={() => setDeleting(true)}>
              Delete
            </Button>
          </>
        )}
      </div>
      <MissedEvents endpoint={endpoint} canManage={canManage} />
      {save.isError && !editing && (
        <Alert tone="error" title="Not changed" className="mt-3">
          {errorMessage(save.error)}
        </Alert>
      )}
      {showLog && (
        <div className="mt-3">
          <EndpointDeliveries endpoint={endpoint} canManage={canManage} />
        </div>
      )}
      {editing && <EndpointFormDialog endpoint={endpoint} onClose={() => setEditing(false)} />}
      {deleting && (
        <ConfirmDialog
          title="Delete this endpoint?"
          confirmLabel="Delete"
          danger
          pending={remove.isPending}
          error={remove.error}
          onClose={() => setDeleting(false)}
          onConfirm={() => remove.mutate(endpoint.id, { onSuccess: () => setDeleting(false) })}
        >
          <p>
            <span className="font-mono break-all">{endpoint.url}</span> receives no more events, and its
            delivery log is deleted.
          </p>
        </ConfirmDialog>
      )}
    </li>
  );
}

/**
 * The team's webhook endpoints: status, last delivery, failure streak, missed events and recent deliveries
 * for every member; adding, editing, enabling, deleting, sending a delivery again and sending the missed
 * events for owners and managers.
 */
export function WebhookEndpoints() {
  const me = useQuery(meQueryOptions());
  const endpoints = useQuery(webhookEndpointsQueryOptions());
  const [adding, setAdding] = useState(false);
  const canManage = me.data?.role === 'owner' || me.data?.role === 'manager';
  return (
    <div className="flex flex-col gap-4">
      {endpoints.isPending ? (
        <LoadingNote>Loading endpoints…</LoadingNote>
      ) : endpoints.isError ? (
        <LoadFailed
          title="Could not load the endpoints"
          error={endpoints.error}
          onRetry={() => void endpoints.refetch()}
        />
      ) : endpoints.data.length === 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          No endpoints yet. Jobs still call their own <code>webhook_url</code>.
        </p>
      ) : (
        <ul className="flex flex-col gap-3" aria-label="Webhook endpoints">
          {endpoints.data.map((endpoint) => (
            <EndpointCard key={endpoint.id} endpoint={endpoint} canManage={canManage} />
          ))}
        </ul>
      )}
      {canManage && (
        <div>
          <Button
            variant="secondary"
            onClick={() => setAdding(true)}
            disabled={(endpoints.data?.length ?? 0) >= WEBHOOK_ENDPOINT_LIMITS.perTeam}
          >
            Add endpoint
          </Button>
        </div>
      )}
      {adding && <EndpointFormDialog onClose={() => setAdding(false)} />}
    </div>
  );
}
