import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { WebhookDelivery } from '../../../../contract/jobs.ts';
import type { WebhookEndpoint } from '../../../../contract/webhook-endpoints.ts';
import { json, stubFetch } from '../../../testing/fake-fetch.ts';
import { renderWithQuery } from '../../../testing/render-with-query.tsx';
import { ME } from '../jobs/job-test-harness.tsx';
import { WebhookSecretRotation } from '../settings/webhook-secret-rotation.tsx';
import { WebhookEndpoints } from './webhook-endpoints.tsx';

const ENDPOINT: WebhookEndpoint = {
  id: 'we_0123456789abcdef01234567',
  url: 'https://hooks.example.com/in',
  description: 'billing system',
  events: ['job.failed'],
  enabled: false,
  disabled_reason: '20 deliveries in a row failed (every retry included).',
  disabled_at: '2026-11-27T19:00:00.000Z',
  failure_streak: 20,
  last_delivery_at: '2026-11-27T19:00:00.000Z',
  last_delivery_status: 'failed',
  missed_events: 0,
  created_at: '2026-11-01T00:00:00.000Z',
  updated_at: '2026-11-27T19:00:00.000Z',
};

const TRY: WebhookDelivery = {
  id: 'msg_1.1',
  webhook_id: 'msg_1',
  job_id: 'job_0123456789abcdef',
  endpoint_id: ENDPOINT.id,
  event_type: 'job.failed',
  url: ENDPOINT.url,
  attempt: 1,
  status: 'failed',
  response_status: 500,
  error: 'receiver answered HTTP 500',
  duration_ms: 42,
  created_at: '2026-11-27T19:00:00.000Z',
  next_attempt_at: null,
  request: {
    url: ENDPOINT.url,
    headers: { 'webhook-id': 'msg_1', 'webhook-signature': 'v1,abc=' },
    body: '{"type":"job.failed"}',
    body_truncated: false,
  },
  response: { status: 500, headers: { 'x-trace': 't-1' }, body: 'database down', body_truncated: false },
};

describe('the webhook endpoints section', () => {
  it('shows a disabled endpoint with why, its per-try log, and turns it back on', async () => {
    const server = stubFetch({
      'GET /v2/me': () => json(ME),
      'GET /v2/webhook-endpoints': () => json({ data: [ENDPOINT] }),
      [`GET /v2/webhook-endpoints/${ENDPOINT.id}/deliveries`]: () => json({ data: [TRY] }),
      [`PATCH /v2/webhook-endpoints/${ENDPOINT.id}`]: () =>
        json({ ...ENDPOINT, enabled: true, disabled_reason: null, failure_streak: 0 }),
    });
    renderWithQuery(<WebhookEndpoints />);
    const user = userEvent.setup();
    const card = (await screen.findByText(ENDPOINT.url)).closest('li')!;
    expect(within(card).getByText('Disabled')).toBeVisible();
    expect(within(card).getByRole('alert')).toHaveTextContent('20 deliveries in a row failed');
    expect(within(card).getByText('20 of 20 before it is disabled')).toBeVisible();

    await user.click(within(card).getByRole('button', { name: 'Recent deliveries' }));
    await user.click(await within(card).findByRole('button', { name: 'Show the log of attempt 1' }));
    expect(within(card).getByText(/webhook-signature: v1,abc=/)).toBeVisible();
    expect(within(card).getByText('database down')).toBeVisible();
    expect(within(card).getByText(/x-trace: t-1/)).toBeVisible();

    await user.click(within(card).getByRole('button', { name: 'Enable' }));
    expect(server.callsTo(`PATCH /v2/webhook-endpoints/${ENDPOINT.id}`)[0]?.body).toEqual({ enabled: true });
  });

  it('offers the events missed while it was off once it is back on, and sends them', async () => {
    let current: WebhookEndpoint = { ...ENDPOINT, missed_events: 3 };
    const server = stubFetch({
      'GET /v2/me': () => json(ME),
      'GET /v2/webhook-endpoints': () => json({ data: [current] }),
      [`PATCH /v2/webhook-endpoints/${ENDPOINT.id}`]: () => {
        current = { ...current, enabled: true, disabled_reason: null, disabled_at: null, failure_streak: 0 };
        return json(current);
      },
      [`POST /v2/webhook-endpoints/${ENDPOINT.id}/recover`]: () => {
        current = { ...current, missed_events: 0 };
        return json({ queued: 3, remaining: 0, since: '2026-11-20T19:00:00.000Z' }, { status: 202 });
      },
    });
    renderWithQuery(<WebhookEndpoints />);
    const user = userEvent.setup();
    const card = (await screen.findByText(ENDPOINT.url)).closest('li')!;
    // While off: told, not offered (sending would only be stopped).
    expect(within(card).getByText(/3 events missed so far/)).toBeVisible();
    expect(within(card).queryByRole('button', { name: 'Send them' })).toBeNull();

    await user.click(within(card).getByRole('button', { name: 'Enable' }));
    expect(await within(card).findByText(/3 events were missed while this endpoint was off/)).toBeVisible();
    await user.click(within(card).getByRole('button', { name: 'Send them' }));
    expect(await within(card).findByText(/3 events queued/)).toBeVisible();
    expect(server.callsTo(`POST /v2/webhook-endpoints/${ENDPOINT.id}/recover`)).toHaveLength(1);
    expect(server.callsTo(`POST /v2/webhook-endpoints/${ENDPOINT.id}/recover`)[0]?.body).toEqual({});
    expect(within(card).queryByRole('button', { name: 'Send them' })).toBeNull();
  });

  it('says why the missed events were not sent when the server refuses', async () => {
    stubFetch({
      'GET /v2/me': () => json(ME),
      'GET /v2/webhook-endpoints': () => json({ data: [{ ...ENDPOINT, enabled: true, missed_events: 1 }] }),
      [`POST /v2/webhook-endpoints/${ENDPOINT.id}/recover`]: () =>
        json(
          {
            error: {
              code: 'conflict',
              message: 'This endpoint is disabled: turn it on first, then send its events.',
            },
          },
          { status: 409 },
        ),
    });
    renderWithQuery(<WebhookEndpoints />);
    const user = userEvent.setup();
    const card = (await screen.findByText(ENDPOINT.url)).closest('li')!;
    expect(within(card).getByText(/1 event was missed while this endpoint was off/)).toBeVisible();
    await user.click(within(card).getByRole('button', { name: 'Send them' }));
    expect(await within(card).findByText(/turn it on first/)).toBeVisible();
  });

  it('sends one delivery again from the log, and not while it is in progress', async () => {
    let tries: WebhookDelivery[] = [TRY];
    const enabled = { ...ENDPOINT, enabled: true, disabled_reason: null, disabled_at: null };
    const server = stubFetch({
      'GET /v2/me': () => json(ME),
      'GET /v2/webhook-endpoints': () => json({ data: [enabled] }),
      [`GET /v2/webhook-endpoints/${ENDPOINT.id}/deliveries`]: () => json({ data: tries }),
      [`POST /v2/webhook-endpoints/${ENDPOINT.id}/deliveries/msg_1/redeliver`]: () => {
        tries = [
          {
            ...TRY,
            id: 'msg_1.2',
            attempt: 2,
            status: 'pending',
            response_status: null,
            error: null,
            duration_ms: null,
            request: null,
            response: null,
          },
          TRY,
        ];
        return json({ webhook_id: 'msg_1', attempt: 2 }, { status: 202 });
      },
    });
    renderWithQuery(<WebhookEndpoints />);
    const user = userEvent.setup();
    const card = (await screen.findByText(ENDPOINT.url)).closest('li')!;
    await user.click(within(card).getByRole('button', { name: 'Recent deliveries' }));
    const again = await within(card).findByRole('button', {
      name: 'Send the job.failed event of attempt 1 again',
    });
    await user.click(again);
    expect(
      server.callsTo(`POST /v2/webhook-endpoints/${ENDPOINT.id}/deliveries/msg_1/redeliver`),
    ).toHaveLength(1);
    expect(await within(card).findByText('Attempt 2 queued.')).toBeVisible();
    // One button per delivery, on its newest try, held while that try is under way.
    const buttons = within(card).getAllByRole('button', { name: /^Send the job.failed event/ });
    expect(buttons).toHaveLength(1);
    expect(buttons[0]).toHaveAccessibleName('Send the job.failed event of attempt 2 again');
    expect(buttons[0]).toBeDisabled();
  });

  it('adds an endpoint with the events chosen', async () => {
    const server = stubFetch({
      'GET /v2/me': () => json(ME),
      'GET /v2/webhook-endpoints': () => json({ data: [] }),
      'POST /v2/webhook-endpoints': () => json({ ...ENDPOINT, enabled: true }, { status: 201 }),
    });
    renderWithQuery(<WebhookEndpoints />);
    const user = userEvent.setup();
    expect(await screen.findByText(/No endpoints yet/)).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Add endpoint' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText('URL'), 'https://hooks.example.com/in');
    await user.click(within(dialog).getByRole('checkbox', { name: /A job completed/ }));
    await user.click(within(dialog).getByRole('checkbox', { name: /A budget alert fired/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Add endpoint' }));
    expect(server.callsTo('POST /v2/webhook-endpoints')[0]?.body).toEqual({
      url: 'https://hooks.example.com/in',
      description: '',
      events: ['job.failed', 'budget.threshold_reached'],
    });
  });

  it('lets members read but not change', async () => {
    stubFetch({
      'GET /v2/me': () => json({ ...ME, role: 'member' }),
      'GET /v2/webhook-endpoints': () => json({ data: [{ ...ENDPOINT, enabled: true, missed_events: 2 }] }),
      [`GET /v2/webhook-endpoints/${ENDPOINT.id}/deliveries`]: () => json({ data: [TRY] }),
    });
    renderWithQuery(<WebhookEndpoints />);
    const card = (await screen.findByText(ENDPOINT.url)).closest('li')!;
    expect(within(card).getByRole('button', { name: 'Recent deliveries' })).toBeVisible();
    expect(within(card).queryByRole('button', { name: 'Enable' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Add endpoint' })).toBeNull();
    await userEvent.setup().click(within(card).getByRole('button', { name: 'Recent deliveries' }));
    expect(await within(card).findByRole('button', { name: 'Show the log of attempt 1' })).toBeVisible();
    expect(within(card).queryByRole('button', { name: /^Send the .* again$/ })).toBeNull();
    expect(within(card).getByText(/2 events were missed/)).toBeVisible();
    expect(within(card).queryByRole('button', { name: 'Send them' })).toBeNull();
  });
});

describe('rotating the signing secret', () => {
  it('rotates with the overlap chosen, shows the new secret once and until when the old one signs', async () => {
    const server = stubFetch({
      'GET /v2/me': () => json(ME),
      'POST /v2/webhooks/secret/rotate': () =>
        json({
          secret: 'whsec_bmV3IHNlY3JldA==',
          created_at: '2026-11-27T19:00:00.000Z',
          previous_secret_expires_at: '2026-12-04T19:00:00.000Z',
        }),
    });
    renderWithQuery(<WebhookSecretRotation />);
    const user = userEvent.setup();
    await user.selectOptions(await screen.findByLabelText('Old secret keeps signing for'), '7 days');
    await user.click(screen.getByRole('button', { name: 'Rotate secret' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Rotate' }));
    expect(await screen.findByText('whsec_bmV3IHNlY3JldA==')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Copy secret' })).toBeVisible();
    expect(screen.getByText(/The old secret also signs webhooks until/)).toBeVisible();
    const call = server.callsTo('POST /v2/webhooks/secret/rotate')[0]!;
    expect(call.url.searchParams.get('overlap_seconds')).toBe('604800');
  });
});
