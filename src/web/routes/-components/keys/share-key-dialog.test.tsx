import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { json, stubFetch } from '../../../testing/fake-fetch.ts';
import { renderWithQuery } from '../../../testing/render-with-query.tsx';
import { ana, bo, testKey } from './key-test-data.ts';
import { ShareKeyDialog } from './share-key-dialog.tsx';

const key = testKey();
const sharesRoute = `GET /v2/api-keys/${key.id}/shares`;
const shareRoute = `POST /v2/api-keys/${key.id}/shares`;

describe('share dialog', () => {
  it('turns typed addresses into chips, marks a bad one at once and sends nothing until it is fixed', async () => {
    const user = userEvent.setup();
    const fetch = stubFetch({ [sharesRoute]: () => json({ owner: ana, shares: [] }) });
    renderWithQuery(<ShareKeyDialog apiKey={key} onClose={vi.fn()} />);
    expect(await screen.findByText('Nobody yet.')).toBeInTheDocument();

    const box = screen.getByLabelText('Email addresses');
    await user.type(box, 'bo@example.com, not-an-email ');
    const chips = screen.getByRole('list', { name: 'Addresses to share with' });
    expect(within(chips).getAllByRole('listitem')).toHaveLength(2);
    expect(within(chips).getByText('(invalid: Not an email address.)')).toBeInTheDocument();
    expect(box).toHaveAttribute('aria-invalid', 'true');

    await user.click(screen.getByRole('button', { name: 'Share' }));
    expect(fetch.callsTo(shareRoute)).toHaveLength(0);
    expect(screen.getByText('Fix or remove the addresses marked invalid.')).toBeInTheDocument();

    // Backspace in the empty box takes the last chip away.
    await user.click(box);
    await user.keyboard('{Backspace}');
    expect(within(chips).getAllByRole('listitem')).toHaveLength(1);
  });

  it('shares, and shows back the addresses that have no account', async () => {
    const user = userEvent.setup();
    const fetch = stubFetch({
      [sharesRoute]: () => json({ owner: ana, shares: [] }),
      [shareRoute]: () =>
        json({
          not_found: ['nobody@example.com'],
          owner: ana,
          shares: [{ ...bo, shared_at: '2026-11-24T18:00:00.000Z' }],
        }),
    });
    renderWithQuery(<ShareKeyDialog apiKey={key} onClose={vi.fn()} />);
    await screen.findByText('Nobody yet.');

    await user.type(screen.getByLabelText('Email addresses'), 'bo@example.com nobody@example.com');
    await user.click(screen.getByRole('button', { name: 'Share' }));

    expect(await screen.findByText('No account for these addresses')).toBeInTheDocument();
    expect(screen.getByText('nobody@example.com')).toBeInTheDocument();
    expect(screen.getByText('Shared with 1 person.')).toBeInTheDocument();
    expect(fetch.callsTo(shareRoute)[0]?.body).toEqual({ emails: ['bo@example.com', 'nobody@example.com'] });
    const list = screen.getByRole('region', { name: 'Shared with (1 of 50)' });
    expect(within(list).getByRole('button', { name: 'Remove bo@example.com' })).toBeInTheDocument();
  });

  it('keeps what passes 20 addresses in the box instead of dropping it', async () => {
    const user = userEvent.setup();
    stubFetch({ [sharesRoute]: () => json({ owner: ana, shares: [] }) });
    renderWithQuery(<ShareKeyDialog apiKey={key} onClose={vi.fn()} />);
    const box = screen.getByLabelText('Email addresses');
    await user.click(box);
    await user.paste(Array.from({ length: 22 }, (_, i) => `p${i}@example.com`).join(', '));
    const chips = screen.getByRole('list', { name: 'Addresses to share with' });
    expect(within(chips).getAllByRole('listitem')).toHaveLength(20);
    expect(box).toHaveValue('p20@example.com, p21@example.com');
  });
});
