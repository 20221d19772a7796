import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { json, stubFetch } from '../../../testing/fake-fetch.ts';
import { renderWithQuery } from '../../../testing/render-with-query.tsx';
import { testKey } from './key-test-data.ts';
import { RotateKeyDialog } from './rotate-key-dialog.tsx';

describe('rotate key dialog', () => {
  it('sends the chosen grace and shows the new secret once, saying until when the old one works', async () => {
    const user = userEvent.setup();
    const fetch = stubFetch({
      'POST /v2/api-keys/key_ci/rotate': () =>
        json({
          api_key: 'mcsk_rotated-secret',
          key: testKey({
            revealable: false,
            rotated_at: '2026-11-27T10:00:00.000Z',
            previous_secret_expires_at: '2026-11-28T10:00:00.000Z',
          }),
        }),
    });
    renderWithQuery(<RotateKeyDialog apiKey={testKey()} onClose={vi.fn()} />);
    expect(screen.getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await user.click(screen.getByRole('radio', { name: 'Keeps working for 24 hours' }));
    await user.click(screen.getByRole('button', { name: 'Rotate key' }));
    expect(await screen.findByLabelText('API key')).toHaveValue('mcsk_rotated-secret');
    expect(screen.getByText('Copy it now: it will not be shown again')).toBeInTheDocument();
    expect(screen.getByText(/The old secret keeps working until/)).toBeInTheDocument();
    expect(fetch.callsTo('POST /v2/api-keys/key_ci/rotate')[0]?.body).toEqual({ grace_seconds: 86_400 });
  });
});
