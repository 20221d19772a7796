import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiError, json, stubFetch } from '../../../testing/fake-fetch.ts';
import { renderWithQuery } from '../../../testing/render-with-query.tsx';
import { testKey } from './key-test-data.ts';
import { RevealKeyDialog } from './reveal-key-dialog.tsx';

const key = testKey();
const revealRoute = `POST /v2/api-keys/${key.id}/reveal`;
const secret = 'mcsk_AbCdefghijklmnopqrstuvwxyz0123456wxyz';

describe('reveal dialog', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('reveals only when asked, counts down, and hides the key again after 30 seconds', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const fetch = stubFetch({
      [revealRoute]: () => json({ api_key: secret }, { headers: { 'cache-control': 'no-store' } }),
    });
    renderWithQuery(<RevealKeyDialog apiKey={key} onClose={vi.fn()} />);
    expect(fetch.callsTo(revealRoute)).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Show key' }));
    const field = await screen.findByLabelText('API key');
    expect(field).toHaveValue(secret);
    expect(field).toHaveFocus();
    expect(screen.getByText('Hides in 30 s')).toBeInTheDocument();

    act(() => {
      vi.advanceTimersByTime(10_000);
    });
    expect(screen.getByText('Hides in 20 s')).toBeInTheDocument();

    act(() => {
      vi.advanceTimersByTime(20_000);
    });
    expect(screen.queryByLabelText('API key')).not.toBeInTheDocument();
    expect(screen.queryByDisplayValue(secret)).not.toBeInTheDocument();
    expect(screen.getAllByText('The key is hidden again.').length).toBeGreaterThan(0);
    expect(screen.getByRole('button', { name: 'Show again' })).toHaveFocus();
    expect(fetch.callsTo(revealRoute)).toHaveLength(1);
  });

  it('says why when the key cannot be shown again', async () => {
    const user = userEvent.setup();
    stubFetch({
      [revealRoute]: () =>
        apiError(
          409,
          'api_key_not_revealable',
          'This key was shown once at creation and cannot be shown again.',
        ),
    });
    renderWithQuery(<RevealKeyDialog apiKey={key} onClose={vi.fn()} />);
    await user.click(screen.getByRole('button', { name: 'Show key' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('cannot be shown again');
    expect(screen.queryByLabelText('API key')).not.toBeInTheDocument();
  });
});
