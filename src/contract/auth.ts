import { z } from 'zod';
import { Cents, Email, Timestamp } from './common.ts';
import { defineEndpoint } from './endpoint.ts';

/** Codes are six digits (spec 4.12). */
export const OTP_LENGTH = 6;
export const OTP_TTL_SECONDS = 600;
/** The fifth wrong try burns the code. */
export const OTP_MAX_ATTEMPTS = 5;

export const SendOtpBody = z.object({ email: Email }).meta({ id: 'SendOtpRequest' });
export const SendOtpResponse = z
  .object({
    sent: z.literal(true),
    expires_in: z.int().meta({ description: 'Seconds the code stays valid.' }),
    message: z.string(),
  })
  .meta({ id: 'SendOtpResponse' });

export const VerifyOtpBody = z
  .object({
    email: Email,
    code: z
      .string()
      .trim()
      .regex(/^\d{6}$/, { message: 'must be the 6-digit code' }),
  })
  .meta({ id: 'VerifyOtpRequest' });

export const VerifyOtpResponse = z
  .object({
    api_key: z.string().meta({ description: "The account's default API key (created on first sign-in)." }),
    email: z.string(),
    balance_cents: Cents,
    access_token: z
      .string()
      .meta({ description: 'Session JWT for the app endpoints; send it as a Bearer token.' }),
    token_type: z.literal('Bearer'),
    expires_at: Timestamp.meta({ description: 'When access_token stops being accepted.' }),
  })
  .meta({ id: 'VerifyOtpResponse' });

export const MailboxMessage = z
  .object({
    to: z.string(),
    subject: z.string(),
    text: z.string(),
    code: z.string().nullable(),
    sent_at: Timestamp,
  })
  .meta({ id: 'MailboxMessage' });

export const sendOtp = defineEndpoint({
  operationId: 'sendOtp',
  method: 'POST',
  path: '/api/auth/cli/send-otp',
  host: 'app',
  tag: 'Account',
  summary: 'Send a sign-in code',
  description:
    'Emails a 6-digit code valid for 10 minutes. The answer is the same whether or not the address has an account. Rate limited per email and per client address.',
  auth: 'none',
  body: SendOtpBody,
  responses: {
    200: { description: 'A code was sent if the address can receive one.', schema: SendOtpResponse },
  },
  errors: ['invalid_request', 'rate_limited'],
});

export const verifyOtp = defineEndpoint({
  operationId: 'verifyOtp',
  method: 'POST',
  path: '/api/auth/cli/verify-otp',
  host: 'app',
  tag: 'Account',
  summary: 'Exchange a sign-in code for a session',
  description:
    'Creates the person, a personal team with the sign-up credits and an API key on first sign-in. Codes are single use; the fifth wrong try burns the code.',
  auth: 'none',
  body: VerifyOtpBody,
  responses: { 200: { description: 'Signed in.', schema: VerifyOtpResponse } },
  errors: ['invalid_request', 'unauthorized', 'rate_limited'],
  noStore: true,
});

export const signOut = defineEndpoint({
  operationId: 'signOut',
  method: 'POST',
  path: '/api/auth/sign-out',
  host: 'app',
  tag: 'Account',
  summary: 'End the current session',
  description: 'Revokes the session JWT used for this call; it is refused from then on.',
  auth: 'session',
  responses: { 204: { description: 'Signed out.' } },
  errors: [],
});

export const devMailbox = defineEndpoint({
  operationId: 'devMailbox',
  method: 'GET',
  path: '/api/dev/mailbox',
  host: 'app',
  tag: 'Account',
  summary: 'Read the development mailbox',
  description:
    "Exists only while no SMTP server is configured, and answers only requests from the server's own machine (loopback, no proxy): the mail the server would have sent, newest first.",
  auth: 'none',
  query: z.object({ to: Email }),
  responses: {
    200: { description: 'Messages to that address.', schema: z.object({ data: z.array(MailboxMessage) }) },
  },
  errors: ['invalid_request', 'not_found'],
  noStore: true,
  internal: true,
});

export const DemoAccount = z
  .object({
    email: z.string().nullable().meta({
      description:
        'Sign in as this address to explore the demo history; null until `npm run seed:demo` has written it.',
    }),
  })
  .meta({ id: 'DemoAccount' });

export const devDemo = defineEndpoint({
  operationId: 'devDemo',
  method: 'GET',
  path: '/api/dev/demo',
  host: 'app',
  tag: 'Account',
  summary: 'Find the demo account',
  description:
    "Exists only while no SMTP server is configured (as the dev mailbox): the address that signs in to the demo team `npm run seed:demo` writes, or null before it has. A server without a dev mailbox answers 404. Every sign-in page asks, so the common answer is not an error in the browser's console.",
  auth: 'none',
  responses: { 200: { description: 'The demo owner, or null.', schema: DemoAccount } },
  errors: ['not_found'],
  noStore: true,
  internal: true,
});
