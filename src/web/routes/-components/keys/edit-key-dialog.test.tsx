import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { json, stubFetch } from '../../../testing/fake-fetch.ts';
import { renderWithQuery } from '../../../testing/render-with-query.tsx';
import { EditKeyDialog } from './edit-key-dialog.tsx';
import { testKey } from './key-test-data.ts';

describe('edit key dialog', () => {
  it("starts from the key's restrictions and sends every field, null for those emptied", async () => {
    const user = userEvent.setup();
    const key = testKey({
      allowed_tools: ['image'],
      allowed_ips: ['203.0.113.0/24'],
      rate_limit_per_minute: 60,
      read_only: true,
      spend_limit: { credits: 500, period: 'week' },
    });
    const fetch = stubFetch({ 'PATCH /v2/api-keys/key_ci': () => json(key) });
    const onClose = vi.fn();
    renderWithQuery(<EditKeyDialog apiKey={key} onClose={onClose} />);
    expect(screen.getByRole('checkbox', { name: 'image' })).toBeChecked();
    expect(screen.getByLabelText('Allowed addresses')).toHaveValue('203.0.113.0/24');
    expect(screen.getByLabelText('Requests a minute')).toHaveValue('60');
    expect(screen.getByLabelText('Spend limit (credits)')).toHaveValue('500');
    expect(screen.getByLabelText('Spend limit per')).toHaveValue('week');

    await user.clear(screen.getByLabelText('Allowed addresses'));
    await user.clear(screen.getByLabelText('Requests a minute'));
    await user.type(screen.getByLabelText('Models'), 'local-sketch');
    await user.clear(screen.getByLabelText('Spend limit (credits)'));
    await user.type(screen.getByLabelText('Spend limit (credits)'), '900');
    await user.selectOptions(screen.getByLabelText('Spend limit per'), 'day');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(fetch.callsTo('PATCH /v2/api-keys/key_ci')[0]?.body).toEqual({
      name: 'CI',
      expires_at: null,
      allowed_tools: ['image'],
      allowed_models: ['local-sketch'],
      allowed_ips: null,
      read_only: true,
      rate_limit_per_minute: null,
      max_concurrent_jobs: null,
      spend_limit: { credits: 900, period: 'day' },
    });
  });

  it("shows the server's refusal (an unknown model) and stays open", async () => {
    const user = userEvent.setup();
    stubFetch({
      'PATCH /v2/api-keys/key_ci': () =>
        json(
          {
            error: {
              code: 'invalid_request',
              message: 'Invalid request: allowed_models.0: No model `nope` in the catalog.',
              details: { fields: [{ field: 'allowed_models.0', message: 'No model', code: 'custom' }] },
            },
          },
          { status: 422 },
        ),
    });
    const onClose = vi.fn();
    renderWithQuery(<EditKeyDialog apiKey={testKey()} onClose={onClose} />);
    await user.type(screen.getByLabelText('Models'), 'nope');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(/No model `nope` in the catalog/)).toBeInTheDocument();
    expect(onClose).not.toHaveBeenCalled();
  });
});
