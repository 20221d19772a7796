import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { apiError, json, stubFetch } from '../../../testing/fake-fetch.ts';
import { renderWithQuery } from '../../../testing/render-with-query.tsx';
import { SignInFlow } from './sign-in-flow.tsx';

const EMAIL = 'ada@example.com';
const SIGNED_IN = {
  api_key: 'mk_test',
  email: EMAIL,
  balance_cents: 1000,
  access_token: 'jwt.test.token',
  token_type: 'Bearer',
  expires_at: '2099-01-01T00:00:00Z',
};
const codeSent = () => json({ sent: true, expires_in: 600, message: 'Code sent' });

function setup(routes: Parameters<typeof stubFetch>[0] = {}) {
  const server = stubFetch({ 'POST /api/auth/cli/send-otp': codeSent, ...routes });
  const onSignedIn = vi.fn();
  const user = userEvent.setup();
  renderWithQuery(<SignInFlow onSignedIn={onSignedIn} />);
  return { server, onSignedIn, user };
}

async function reachCodeStep(user: ReturnType<typeof userEvent.setup>, email = EMAIL) {
  await user.type(screen.getByLabelText('Email'), email);
  await user.click(screen.getByRole('button', { name: 'Email me a code' }));
  return screen.findByLabelText('Verification code');
}

describe('sign-in flow', () => {
  it('checks the email before sending anything', async () => {
    const { server, user } = setup();
    await user.click(screen.getByRole('button', { name: 'Email me a code' }));
    expect(await screen.findByText('Enter your email address.')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Email'), 'not-an-email');
    await user.click(screen.getByRole('button', { name: 'Email me a code' }));
    expect(await screen.findByText('Email must be an email address.')).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true');
    expect(server.calls).toHaveLength(0);
  });

  it('sends the code to the normalised address, then asks for it', async () => {
    const { server, user } = setup();
    const codeInput = await reachCodeStep(user, '  Ada@Example.com ');
    expect(server.callsTo('POST /api/auth/cli/send-otp')[0]?.body).toEqual({ email: EMAIL });
    expect(screen.getByRole('heading', { name: 'Check your email' })).toBeInTheDocument();
    expect(screen.getByText(EMAIL)).toBeInTheDocument();
    expect(codeInput).toHaveAttribute('inputmode', 'numeric');
    expect(codeInput).toHaveAttribute('autocomplete', 'one-time-code');
    expect(codeInput).toHaveFocus();
  });

  it('takes a pasted code with spaces or text around it', async () => {
    const { user } = setup();
    const codeInput = await reachCodeStep(user);
    await user.click(codeInput);
    await user.paste('Your code: 123 456');
    expect(codeInput).toHaveValue('123456');
  });

  it('asks for six digits before verifying', async () => {
    const { server, user } = setup();
    const codeInput = await reachCodeStep(user);
    await user.type(codeInput, '12a3');
    expect(codeInput).toHaveValue('123');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('The code must be the 6-digit code.')).toBeInTheDocument();
    expect(server.callsTo('POST /api/auth/cli/verify-otp')).toHaveLength(0);
  });

  it('signs in with the right code', async () => {
    const { server, user, onSignedIn } = setup({ 'POST /api/auth/cli/verify-otp': () => json(SIGNED_IN) });
    await user.type(await reachCodeStep(user), '654321');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(onSignedIn).toHaveBeenCalledWith(SIGNED_IN));
    expect(server.callsTo('POST /api/auth/cli/verify-otp')[0]?.body).toEqual({
      email: EMAIL,
      code: '654321',
    });
  });

  it("shows the server's reason for a wrong or expired code, at the field, until the code changes", async () => {
    const { user, onSignedIn } = setup({
      'POST /api/auth/cli/verify-otp': () =>
        apiError(401, 'unauthorized', 'The code is wrong or has expired.'),
    });
    const code = await reachCodeStep(user);
    await user.type(code, '000000');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The code is wrong or has expired.');
    expect(code).toHaveAttribute('aria-invalid', 'true');
    expect(code).toHaveAccessibleDescription('The code is wrong or has expired.');
    expect(onSignedIn).not.toHaveBeenCalled();
    await user.type(code, '{Backspace}1');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(code).not.toHaveAttribute('aria-invalid');
  });

  it('a refusal that is not about the code leaves the field as it is', async () => {
    const { user } = setup({
      'POST /api/auth/cli/verify-otp': () => apiError(500, 'internal_error', 'Database away'),
    });
    const code = await reachCodeStep(user);
    await user.type(code, '000000');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The server could not complete the sign-in');
    expect(code).not.toHaveAttribute('aria-invalid');
  });

  it('says how long to wait when rate limited', async () => {
    const { user } = setup({
      'POST /api/auth/cli/verify-otp': () =>
        apiError(429, 'rate_limited', 'Too many requests', { 'retry-after': '30' }),
    });
    await user.type(await reachCodeStep(user), '000000');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many attempts. Try again in 30 seconds.');
    expect(screen.getByRole('button', { name: /Try again in \d+s/ })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Resend code' })).toBeDisabled();
  });

  it('resends the code', async () => {
    const { server, user } = setup();
    await reachCodeStep(user);
    await user.click(screen.getByRole('button', { name: 'Resend code' }));
    expect(await screen.findByText(/We sent a new code to ada@example.com/)).toBeInTheDocument();
    expect(server.callsTo('POST /api/auth/cli/send-otp')).toHaveLength(2);
  });

  it('goes back to the email step, keeping the address', async () => {
    const { user } = setup();
    await reachCodeStep(user);
    await user.click(screen.getByRole('button', { name: 'Use another email' }));
    expect(screen.getByLabelText('Email')).toHaveValue(EMAIL);
  });

  it('offers the dev mailbox when the server has one, and signs in with a code from it', async () => {
    const { server, user, onSignedIn } = setup({
      'POST /api/auth/cli/verify-otp': () => json(SIGNED_IN),
      'GET /api/dev/mailbox': ({ url }) =>
        json({
          data: [
            {
              to: url.searchParams.get('to'),
              subject: 'Your sign-in code',
              text: 'Your code is 246810',
              code: '246810',
              sent_at: new Date().toISOString(),
            },
          ],
        }),
    });
    const codeInput = await reachCodeStep(user);
    await user.click(await screen.findByRole('button', { name: 'Open dev mailbox' }));
    expect(await screen.findByText('246810')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Sign in with this code' }));
    expect(codeInput).toHaveValue('246810');
    await waitFor(() => expect(onSignedIn).toHaveBeenCalledWith(SIGNED_IN));
    expect(server.callsTo('POST /api/auth/cli/verify-otp')[0]?.body).toEqual({
      email: EMAIL,
      code: '246810',
    });
  });

  it('hides the dev mailbox when the server answers 404', async () => {
    const { server, user } = setup();
    await reachCodeStep(user);
    await waitFor(() => expect(server.callsTo('GET /api/dev/mailbox')).toHaveLength(1));
    expect(screen.queryByRole('button', { name: 'Open dev mailbox' })).not.toBeInTheDocument();
  });
});
