import { type FormEvent, useId, useState } from 'react';
import {
  WEBHOOK_ENDPOINT_EVENTS,
  type WebhookEndpoint,
  type WebhookEndpointEvent,
} from '../../../../contract/webhook-endpoints.ts';
import { Alert } from '../../../components/alert.tsx';
import { Button } from '../../../components/button.tsx';
import { errorMessage } from '../../../components/confirm-dialog.tsx';
import { ModalDialog } from '../../../components/modal-dialog.tsx';
import { TextField } from '../../../components/text-field.tsx';
import { useSaveWebhookEndpoint } from '../../../queries/webhooks.ts';

/** Each event in words. */
export const EVENT_LABELS: Record<WebhookEndpointEvent, string> = {
  'job.completed': 'A job completed',
  'job.failed': 'A job failed',
  'job.cancelled': 'A job was cancelled',
  'budget.threshold_reached': 'A budget alert fired',
};

/** Adds a team endpoint, or edits one (`endpoint` given). */
export function EndpointFormDialog({
  endpoint,
  onClose,
}: {
  endpoint?: WebhookEndpoint;
  onClose: () => void;
}) {
  const save = useSaveWebhookEndpoint();
  const formId = useId();
  const errorId = useId();
  const [url, setUrl] = useState(endpoint?.url ?? '');
  const [description, setDescription] = useState(endpoint?.description ?? '');
  const [events, setEvents] = useState<ReadonlySet<WebhookEndpointEvent>>(
    new Set(endpoint?.events ?? ['job.completed', 'job.failed']),
  );
  const toggle = (event: WebhookEndpointEvent) =>
    setEvents((current) => {
      const next = new Set(current);
      if (!next.delete(event)) next.add(event);
      return next;
    });
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const fields = {
      url: url.trim(),
      description: description.trim(),
      events: WEBHOOK_ENDPOINT_EVENTS.filter((ev) => events.has(ev)),
    };
    save.mutate({ id: endpoint?.id, fields }, { onSuccess: onClose });
  };
  return (
    <ModalDialog
      title={endpoint ? 'Edit webhook endpoint' : 'Add a webhook endpoint'}
      description="It receives the chosen events of every job of the team, signed with the team's secret."
      onClose={onClose}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button
            type="submit"
            form={formId}
            pending={save.isPending}
            disabled={url.trim() === '' || events.size === 0}
          >
            {endpoint ? 'Save' : 'Add endpoint'}
          </Button>
        </>
      }
    >
      <form id={formId} className="flex flex-col gap-4" onSubmit={onSubmit} noValidate>
        <TextField
          label="URL"
          type="url"
          inputMode="url"
          placeholder="https://example.com/webhooks"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          refusedBy={save.isError ? errorId : undefined}
          required
          data-autofocus
        />
        <TextField
          label="Description (optional)"
          value={description}
          maxLength={500}
          onChange={(e) => setDescription(e.target.value)}
        />
        <fieldset className="flex flex-col gap-2">
          <legend className="mb-1 text-sm font-medium text-zinc-800 dark:text-zinc-200">Events</legend>
          {WEBHOOK_ENDPOINT_EVENTS.map((event) => (
            <label key={event} className="flex items-center gap-2 text-sm">
              <input type="checkbox" checked={events.has(event)} onChange={() => toggle(event)} />
              {EVENT_LABELS[event]} <code className="text-xs text-zinc-600 dark:text-zinc-400">{event}</code>
            </label>
          ))}
          {events.size === 0 && (
            <p className="text-sm text-red-700 dark:text-red-400">Choose at least one event.</p>
          )}
        </fieldset>
        {save.isError && (
          <Alert tone="error" title="Not saved" id={errorId}>
            {errorMessage(save.error)}
          </Alert>
        )}
      </form>
    </ModalDialog>
  );
}
