import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
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
  useSaveWebhookEndpoint,
  webhookEndpointsQueryOptions,
} from '../../../queries/webhooks.ts';
import { DeliveryTries } from './delivery-tries.tsx';
import { EndpointFormDialog, EVENT_LABELS } from './endpoint-form-dialog.tsx';

function EndpointDeliveries({ id }: { id: string }) {
  const log = useQuery({
    ...endpointDeliveriesQueryOptions(id),
    refetchInterval: (query) =>
      query.state.data?.some((d) => d.status === 'pending' || d.next_attempt_at) ? 2_000 : false,
  });
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
  return <DeliveryTries caption="Recent deliveries to this endpoint" tries={log.data} />;
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
      {save.isError && !editing && (
        <Alert tone="error" title="Not changed" className="mt-3">
          {errorMessage(save.error)}
        </Alert>
      )}
      {showLog && (
        <div className="mt-3">
          <EndpointDeliveries id={endpoint.id} />
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
 * The team's webhook endpoints: status, last delivery, failure streak and recent deliveries for every
 * member; adding, editing, enabling and deleting for owners and managers.
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
