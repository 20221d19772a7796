import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { apiError, json, stubFetch } from '../../../testing/fake-fetch.ts';
import { renderWithQuery } from '../../../testing/render-with-query.tsx';
import { DemoSignIn } from './demo-sign-in.tsx';

const DEMO = 'demo@example.com';
const SIGNED_IN = {
  api_key: 'mk_test',
  email: DEMO,
  balance_cents: 0,
  access_token: 'jwt.test.token',
  token_type: 'Bearer',
  expires_at: '2099-01-01T00:00:00Z',
};
const mailbox = (code: string | null) =>
  json({
    data: [{ to: DEMO, subject: 'Your code', text: '…', code, sent_at: '2026-01-01T00:00:00Z' }],
  });

function setup(routes: Parameters<typeof stubFetch>[0]) {
  const server = stubFetch(routes);
  const onSignedIn = vi.fn();
  const { queryClient } = renderWithQuery(<DemoSignIn onSignedIn={onSignedIn} />);
  /** The probe asked and its answer (or failure) taken: what absence is asserted after. */
  const probeSettled = async () => {
    await waitFor(() => expect(server.callsTo('GET /api/dev/demo')).toHaveLength(1));
    await waitFor(() => expect(queryClient.isFetching()).toBe(0));
  };
  return { server, onSignedIn, probeSettled, user: userEvent.setup() };
}

const button = () => screen.queryByRole('button', { name: 'Explore the demo data' });

describe('demo sign-in', () => {
  it.each([
    ['no demo seeded (email: null)', () => json({ email: null })],
    ['no dev mailbox (404)', () => apiError(404, 'not_found', 'There is no demo sign-in.')],
  ])('is not offered when the server has %s', async (_, answer) => {
    const { probeSettled } = setup({ 'GET /api/dev/demo': answer });
    await probeSettled();
    expect(button()).toBeNull();
    expect(screen.queryByRole('region', { name: 'Demo data' })).toBeNull();
  });

  it('is not offered when the probe fails', async () => {
    const { probeSettled } = setup({ 'GET /api/dev/demo': () => apiError(500, 'internal', 'boom') });
    await probeSettled();
    expect(button()).toBeNull();
  });

  it('signs in as the demo owner in one click: code asked, read from the dev mailbox, verified', async () => {
    const { server, onSignedIn, user } = setup({
      'GET /api/dev/demo': () => json({ email: DEMO }),
      'POST /api/auth/cli/send-otp': () => json({ sent: true, expires_in: 600, message: 'sent' }),
      'GET /api/dev/mailbox': () => mailbox('246810'),
      'POST /api/auth/cli/verify-otp': () => json(SIGNED_IN),
    });
    expect(await screen.findByRole('region', { name: 'Demo data' })).toHaveTextContent(DEMO);
    await user.click(button()!);
    await waitFor(() => expect(onSignedIn).toHaveBeenCalledWith(SIGNED_IN));
    expect(server.callsTo('POST /api/auth/cli/send-otp')[0]?.body).toEqual({ email: DEMO });
    expect(server.callsTo('GET /api/dev/mailbox')[0]?.url.searchParams.get('to')).toBe(DEMO);
    expect(server.callsTo('POST /api/auth/cli/verify-otp')[0]?.body).toEqual({ email: DEMO, code: '246810' });
  });

  it('says why when the code cannot be had, and lets one try again', async () => {
    const { server, onSignedIn, user } = setup({
      'GET /api/dev/demo': () => json({ email: DEMO }),
      'POST /api/auth/cli/send-otp': () => json({ sent: true, expires_in: 600, message: 'sent' }),
      'GET /api/dev/mailbox': () => mailbox(null),
    });
    await user.click(await screen.findByRole('button', { name: 'Explore the demo data' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('did not reach the dev mailbox');
    expect(server.callsTo('POST /api/auth/cli/verify-otp')).toHaveLength(0);
    expect(onSignedIn).not.toHaveBeenCalled();
    expect(button()).toBeEnabled();
  });
});
