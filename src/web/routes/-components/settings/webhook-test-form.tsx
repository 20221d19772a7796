import { type FormEvent, useState } from 'react';
import { Alert } from '../../../components/alert.tsx';
import { Button } from '../../../components/button.tsx';
import { TextField } from '../../../components/text-field.tsx';
import { formatDuration } from '../../../format/duration.ts';
import { useSendWebhookTestEvent } from '../../../queries/webhooks.ts';

/**
 * "Send a test event": one `webhook.test` request to a receiver, signed with the team's secret like a
 * job's event, so a developer can check their endpoint verifies signatures before a real job calls it.
 */
export function WebhookTestForm() {
  const [url, setUrl] = useState('');
  const send = useSendWebhookTestEvent();
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    send.mutate(url.trim());
  };
  const result = send.data;
  return (
    <form className="flex flex-col gap-4" onSubmit={onSubmit} noValidate>
      <TextField
        label="Receiver URL"
        type="url"
        inputMode="url"
        placeholder="https://example.com/webhooks"
        hint="Gets one webhook.test event, signed like a job’s events (Standard Webhooks)."
        value={url}
        onChange={(e) => setUrl(e.target.value)}
        required
      />
      <div>
        <Button type="submit" disabled={send.isPending || url.trim() === ''}>
          {send.isPending ? 'Sending…' : 'Send test event'}
        </Button>
      </div>
      {send.isError && (
        <Alert tone="error" title="Not sent">
          {send.error instanceof Error ? send.error.message : String(send.error)}
        </Alert>
      )}
      {result && !send.isPending && (
        <Alert
          tone={result.delivered ? 'success' : 'error'}
          title={result.delivered ? 'Delivered' : 'Not delivered'}
        >
          {result.delivered
            ? `The receiver answered HTTP ${result.response_status} in ${formatDuration(result.duration_ms)}.`
            : `${result.error ?? 'The receiver did not accept it.'} (after ${formatDuration(result.duration_ms)})`}{' '}
          Webhook id <code className="font-mono select-all">{result.webhook_id}</code>.
        </Alert>
      )}
    </form>
  );
}
