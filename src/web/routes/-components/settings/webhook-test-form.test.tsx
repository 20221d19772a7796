import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { WebhookTestResult } from '../../../../contract/webhooks.ts';
import { apiError, json, stubFetch } from '../../../testing/fake-fetch.ts';
import { renderWithQuery } from '../../../testing/render-with-query.tsx';
import { WebhookTestForm } from './webhook-test-form.tsx';

const RESULT: WebhookTestResult = {
  webhook_id: 'msg_0123456789abcdef0123456789abcdef',
  url: 'https://hooks.example.com/in',
  delivered: true,
  response_status: 204,
  error: null,
  duration_ms: 120,
  sent_at: '2026-11-27T19:00:00.000Z',
};

describe('the webhook test form', () => {
  it('sends a test event to the URL and says what the receiver answered', async () => {
    const server = stubFetch({ 'POST /v2/webhooks/test': () => json(RESULT) });
    renderWithQuery(<WebhookTestForm />);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Receiver URL'), 'https://hooks.example.com/in');
    await user.click(screen.getByRole('button', { name: 'Send test event' }));
    expect(await screen.findByText(/The receiver answered HTTP 204 in 120 ms/)).toBeVisible();
    expect(screen.getByText(RESULT.webhook_id)).toBeVisible();
    expect(server.callsTo('POST /v2/webhooks/test')[0]?.body).toEqual({
      url: 'https://hooks.example.com/in',
    });
  });

  it('says when the receiver refused it, and when the server would not send it', async () => {
    let refused = true;
    stubFetch({
      'POST /v2/webhooks/test': () =>
        refused
          ? json({ ...RESULT, delivered: false, response_status: 500, error: 'receiver answered HTTP 500' })
          : apiError(403, 'forbidden', 'Webhook URL https://10.0.0.1/: the host is not public.'),
    });
    renderWithQuery(<WebhookTestForm />);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Receiver URL'), 'https://hooks.example.com/in');
    await user.click(screen.getByRole('button', { name: 'Send test event' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Not deliveredreceiver answered HTTP 500');
    refused = false;
    await user.click(screen.getByRole('button', { name: 'Send test event' }));
    expect(await screen.findByText(/the host is not public/)).toBeVisible();
  });
});
