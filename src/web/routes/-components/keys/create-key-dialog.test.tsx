import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { json, stubFetch } from '../../../testing/fake-fetch.ts';
import { renderWithQuery } from '../../../testing/render-with-query.tsx';
import { CreateKeyDialog } from './create-key-dialog.tsx';
import { testKey } from './key-test-data.ts';

describe('create key dialog', () => {
  it('asks for a name, then shows the new key once with a warning', async () => {
    const user = userEvent.setup();
    const fetch = stubFetch({
      'POST /v2/api-keys': () =>
        json(
          { api_key: 'mcsk_new-secret', key: testKey({ name: 'Laptop', revealable: false }) },
          { status: 201 },
        ),
    });
    renderWithQuery(<CreateKeyDialog onClose={vi.fn()} />);
    expect(screen.getByLabelText('Name')).toHaveFocus();

    await user.click(screen.getByRole('button', { name: 'Create key' }));
    expect(screen.getByText('Give the key a name.')).toBeInTheDocument();
    expect(fetch.callsTo('POST /v2/api-keys')).toHaveLength(0);

    await user.type(screen.getByLabelText('Name'), '  Laptop ');
    await user.keyboard('{Enter}');

    expect(await screen.findByLabelText('API key')).toHaveValue('mcsk_new-secret');
    expect(screen.getByText('Copy it now: it will not be shown again')).toBeInTheDocument();
    expect(fetch.callsTo('POST /v2/api-keys')[0]?.body).toEqual({ name: 'Laptop', revealable: false });
  });

  it('sends the revealable choice and explains it', async () => {
    const user = userEvent.setup();
    const fetch = stubFetch({
      'POST /v2/api-keys': () =>
        json({ api_key: 'mcsk_x', key: testKey({ revealable: true }) }, { status: 201 }),
    });
    renderWithQuery(<CreateKeyDialog onClose={vi.fn()} />);
    const box = screen.getByRole('checkbox', { name: 'Can be shown again (revealable)' });
    expect(box).toHaveAccessibleDescription(/keeps it encrypted/);
    await user.type(screen.getByLabelText('Name'), 'CI');
    await user.click(box);
    await user.click(screen.getByRole('button', { name: 'Create key' }));
    await screen.findByLabelText('API key');
    expect(fetch.callsTo('POST /v2/api-keys')[0]?.body).toEqual({ name: 'CI', revealable: true });
  });
});
