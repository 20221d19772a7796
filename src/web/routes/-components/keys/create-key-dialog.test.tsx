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
    // Enter in the name submits in browsers (the e2e spec presses it); jsdom's implicit submission does not
    // count the footer's button (outside the form, joined by `form=`) now that the form has more fields.
    await user.click(screen.getByRole('button', { name: 'Create key' }));

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

  it('sends only the restrictions that are set, and a service key when the team is chosen', async () => {
    const user = userEvent.setup();
    const fetch = stubFetch({
      'POST /v2/api-keys': () =>
        json({ api_key: 'mcsk_x', key: testKey({ service: true, owner: null }) }, { status: 201 }),
    });
    renderWithQuery(<CreateKeyDialog onClose={vi.fn()} canMakeServiceKey />);
    await user.type(screen.getByLabelText('Name'), 'Deploy bot');
    await user.click(screen.getByRole('radio', { name: /The team \(service key\)/ }));
    await user.click(screen.getByText('Restrictions (optional)'));
    await user.click(screen.getByRole('checkbox', { name: 'image' }));
    await user.type(screen.getByLabelText('Models'), 'local-sketch, flux-schnell');
    await user.type(screen.getByLabelText('Allowed addresses'), '10.0.0.0/33');
    await user.type(screen.getByLabelText('Jobs at once'), '4');
    await user.type(screen.getByLabelText('Spend limit (credits)'), '250');
    await user.click(screen.getByRole('checkbox', { name: /Read-only/ }));
    await user.click(screen.getByRole('button', { name: 'Create key' }));
    expect(await screen.findByText(/Not an address or CIDR: 10.0.0.0\/33/)).toBeInTheDocument();
    expect(fetch.callsTo('POST /v2/api-keys')).toHaveLength(0);

    await user.clear(screen.getByLabelText('Allowed addresses'));
    await user.type(screen.getByLabelText('Allowed addresses'), '203.0.113.0/24{Enter}2001:db8::1');
    await user.click(screen.getByRole('button', { name: 'Create key' }));
    await screen.findByLabelText('API key');
    expect(fetch.callsTo('POST /v2/api-keys')[0]?.body).toEqual({
      name: 'Deploy bot',
      revealable: false,
      owner: 'team',
      allowed_tools: ['image'],
      allowed_models: ['local-sketch', 'flux-schnell'],
      allowed_ips: ['203.0.113.0/24', '2001:db8::1'],
      read_only: true,
      max_concurrent_jobs: 4,
      spend_limit: { credits: 250, period: 'month' },
    });
  });

  it('offers the service-key choice only to owners and managers', () => {
    stubFetch({});
    renderWithQuery(<CreateKeyDialog onClose={vi.fn()} />);
    expect(screen.queryByRole('radio', { name: /service key/ })).toBeNull();
  });
});
