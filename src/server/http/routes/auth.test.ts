import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../client/api-error.ts';
import { Me } from '../../../contract/account.ts';
import { MailboxMessage, SendOtpResponse, VerifyOtpResponse } from '../../../contract/auth.ts';
import { ErrorEnvelope } from '../../../contract/errors.ts';
import { isWellFormedApiKey } from '../../domain/identity/api-key-format.ts';
import { createTestApp, signUp, type TestApp } from '../../testing/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ SIGNUP_CREDITS: '1000' });
});
afterAll(() => t.close());

let n = 0;
const freshEmail = () => `person-${Date.now()}-${n++}@example.com`;
const freshAddress = () => `192.0.2.${(n++ % 250) + 1}`;

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

async function latestCode(email: string): Promise<string> {
  const mail = await t.local.devMailbox({ query: { to: email } });
  return mail.data[0]!.code!;
}

describe('sign-in by emailed code', () => {
  it('creates the person, a personal team with the sign-up credits and an API key on first sign-in', async () => {
    const email = freshEmail();
    const client = t.clientFor(null, freshAddress());
    const sent = await client.sendOtp({ body: { email: email.toUpperCase() } });
    expect(SendOtpResponse.parse(sent)).toMatchObject({ sent: true, expires_in: 600 });

    const mailbox = await t.local.devMailbox({ query: { to: email } });
    expect(mailbox.data).toHaveLength(1);
    const message = MailboxMessage.parse(mailbox.data[0]);
    expect(message.code).toMatch(/^\d{6}$/);
    expect(message.text).toContain(message.code);

    const session = VerifyOtpResponse.parse(await client.verifyOtp({ body: { email, code: message.code! } }));
    expect(session.email).toBe(email);
    expect(session.balance_cents).toBe(1000);
    expect(isWellFormedApiKey(session.api_key)).toBe(true);
    expect(new Date(session.expires_at).getTime()).toBeGreaterThan(Date.now());

    for (const token of [session.api_key, session.access_token]) {
      const me = Me.parse(await t.clientFor(token).getMe());
      expect(me.person?.email).toBe(email);
      expect(me.team).toMatchObject({ personal: true, role: 'owner' });
      expect(me.balance_cents).toBe(1000);
      expect(await t.clientFor(token).getBalanceV1()).toEqual({ balance_cents: 1000 });
    }
    const ledger = await t.db.query(
      'SELECT kind, delta_cents, balance_after_cents FROM credit_ledger l JOIN memberships m ON m.team_id = l.team_id JOIN persons p ON p.id = m.person_id WHERE p.email = $1',
      [email],
    );
    expect(ledger.rows).toEqual([{ kind: 'grant', delta_cents: 1000, balance_after_cents: 1000 }]);
  });

  it('signs a returning person into the same account with the same default key, and grants no more credits', async () => {
    const first = await signUp(t);
    const again = await signUp(t, first.email);
    expect(again.api_key).toBe(first.api_key);
    expect(again.access_token).not.toBe(first.access_token);
    expect(again.balance_cents).toBe(1000);
    const people = await t.db.query('SELECT count(*)::int AS n FROM persons WHERE email = $1', [first.email]);
    expect(people.rows[0].n).toBe(1);
  });

  it('stores only a hash of the code and of the key', async () => {
    const session = await signUp(t);
    const codes = await t.db.query('SELECT code_hash FROM otp_codes WHERE email = $1', [session.email]);
    expect(codes.rows[0].code_hash).toBeInstanceOf(Buffer);
    const keys = await t.db.query(
      `SELECT k.* FROM api_keys k JOIN persons p ON p.id = k.owner_person_id WHERE p.email = $1`,
      [session.email],
    );
    const row = JSON.stringify(keys.rows[0]);
    expect(row).not.toContain(session.api_key);
    expect(row).not.toContain(session.api_key.slice(10, 30));
  });

  it('gives the same answer for a known and an unknown email', async () => {
    const known = await signUp(t);
    const client = t.clientFor(null, freshAddress());
    const a = await client.sendOtp({ body: { email: known.email } });
    const b = await client.sendOtp({ body: { email: freshEmail() } });
    expect(a).toEqual(b);
  });

  it('answers a code for an email that was sent none exactly as a wrong code, try after try', async () => {
    const pending = freshEmail();
    const client = t.clientFor(null, freshAddress());
    await client.sendOtp({ body: { email: pending } });
    const real = await latestCode(pending);
    const wrong = real === '000000' ? '000001' : '000000';
    const none = freshEmail();
    const answer = (e: ApiError) => ({
      status: e.status,
      code: e.code,
      message: e.message,
      details: e.details,
    });
    for (let i = 0; i < 6; i++) {
      const toPending = answer(await failure(client.verifyOtp({ body: { email: pending, code: wrong } })));
      const toNone = answer(await failure(client.verifyOtp({ body: { email: none, code: wrong } })));
      expect(toNone, `try ${i + 1}`).toEqual(toPending);
      expect(toNone.status).toBe(401);
    }
    // The stand-in never blocks a real code sent afterwards.
    await client.sendOtp({ body: { email: none } });
    const session = await client.verifyOtp({ body: { email: none, code: await latestCode(none) } });
    expect(session.email).toBe(none);
  });

  it('refuses a used code', async () => {
    const email = freshEmail();
    const client = t.clientFor(null, freshAddress());
    await client.sendOtp({ body: { email } });
    const code = await latestCode(email);
    await client.verifyOtp({ body: { email, code } });
    const error = await failure(client.verifyOtp({ body: { email, code } }));
    expect([error.status, error.code]).toEqual([401, 'unauthorized']);
    expect(error.details).toMatchObject({ reason: 'used' });
  });

  it('refuses an expired code', async () => {
    const email = freshEmail();
    const client = t.clientFor(null, freshAddress());
    await client.sendOtp({ body: { email } });
    const code = await latestCode(email);
    await t.db.query(`UPDATE otp_codes SET expires_at = now() - interval '1 second' WHERE email = $1`, [
      email,
    ]);
    const error = await failure(client.verifyOtp({ body: { email, code } }));
    expect([error.status, error.code]).toEqual([401, 'unauthorized']);
    expect(error.details).toMatchObject({ reason: 'expired' });
  });

  it('keeps a code valid for 10 minutes', async () => {
    const email = freshEmail();
    await t.clientFor(null, freshAddress()).sendOtp({ body: { email } });
    const { rows } = await t.db.query(
      'SELECT extract(epoch FROM expires_at - created_at)::int AS seconds FROM otp_codes WHERE email = $1',
      [email],
    );
    expect(rows[0].seconds).toBe(600);
  });

  it('burns the code on the fifth wrong try, even if the right code follows', async () => {
    const email = freshEmail();
    const client = t.clientFor(null, freshAddress());
    await client.sendOtp({ body: { email } });
    const code = await latestCode(email);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let attempt = 1; attempt <= 4; attempt++) {
      const error = await failure(client.verifyOtp({ body: { email, code: wrong } }));
      expect(error.details).toMatchObject({ reason: 'incorrect', attempts_left: 5 - attempt });
    }
    const fifth = await failure(client.verifyOtp({ body: { email, code: wrong } }));
    expect(fifth.details).toMatchObject({ reason: 'too_many_attempts' });
    const right = await failure(client.verifyOtp({ body: { email, code } }));
    expect(right.status).toBe(401);
    expect(right.details).toMatchObject({ reason: 'too_many_attempts' });
  });

  it('accepts only the newest code', async () => {
    const email = freshEmail();
    const client = t.clientFor(null, freshAddress());
    await client.sendOtp({ body: { email } });
    const older = await latestCode(email);
    await client.sendOtp({ body: { email } });
    const newer = await latestCode(email);
    if (older !== newer) {
      const error = await failure(client.verifyOtp({ body: { email, code: older } }));
      expect(error.status).toBe(401);
    }
    await expect(client.verifyOtp({ body: { email, code: newer } })).resolves.toMatchObject({ email });
  });

  it('lets one of two simultaneous uses of a code win', async () => {
    const email = freshEmail();
    const client = t.clientFor(null, freshAddress());
    await client.sendOtp({ body: { email } });
    const code = await latestCode(email);
    const results = await Promise.allSettled(
      [1, 2, 3].map(() => client.verifyOtp({ body: { email, code } })),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
  });

  it('limits codes per email: the sixth in 15 minutes gets 429 with Retry-After', async () => {
    const email = freshEmail();
    for (let i = 0; i < 5; i++) await t.clientFor(null, freshAddress()).sendOtp({ body: { email } });
    const response = await t.request('/api/auth/cli/send-otp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': freshAddress() },
      body: JSON.stringify({ email }),
    });
    expect(response.status).toBe(429);
    const retryAfter = Number(response.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(900);
    expect(response.headers.get('ratelimit-remaining')).toBe('0');
    const body = ErrorEnvelope.parse(await response.json());
    expect(body.error.code).toBe('rate_limited');
    const mail = await t.local.devMailbox({ query: { to: email } });
    expect(mail.data).toHaveLength(5);
  });

  it('limits codes per client address across emails', async () => {
    const address = '198.18.0.1';
    const client = t.clientFor(null, address);
    for (let i = 0; i < 30; i++) await client.sendOtp({ body: { email: freshEmail() } });
    const error = await failure(client.sendOtp({ body: { email: freshEmail() } }));
    expect([error.status, error.code]).toEqual([429, 'rate_limited']);
    expect(error.retryAfter).toBeGreaterThan(0);
  });

  it('takes its per-address limit from SIGN_IN_CODES_PER_ADDRESS (many people can share one address)', async () => {
    const shared = await createTestApp({ SIGN_IN_CODES_PER_ADDRESS: '3' });
    try {
      const client = shared.clientFor(null, '198.18.0.2');
      for (let i = 0; i < 3; i++) await client.sendOtp({ body: { email: freshEmail() } });
      const error = await failure(client.sendOtp({ body: { email: freshEmail() } }));
      expect([error.status, error.code]).toEqual([429, 'rate_limited']);
    } finally {
      await shared.close();
    }
  });

  it('validates the body: 422 naming each bad field', async () => {
    const error = await failure(
      t.clientFor(null).verifyOtp({ body: { email: 'not-an-email', code: '12345' } }),
    );
    expect(error.status).toBe(422);
    expect(error.code).toBe('invalid_request');
    const fields = (error.details as { fields: Array<{ field: string }> }).fields.map((f) => f.field);
    expect(fields).toEqual(['email', 'code']);
    expect(error.message).toContain('email');
    expect(error.message).toContain('code');
  });

  it('ends the session on sign-out: the JWT is refused afterwards, the API key still works', async () => {
    const session = await signUp(t);
    await t.clientFor(session.access_token).signOut();
    const error = await failure(t.clientFor(session.access_token).getMe());
    expect([error.status, error.code]).toEqual([401, 'unauthorized']);
    await expect(t.clientFor(session.api_key).getMe()).resolves.toMatchObject({ balance_cents: 1000 });
  });
});

describe('dev mailbox', () => {
  it('does not exist when SMTP is configured', async () => {
    const smtp = await createTestApp({ SMTP_URL: 'smtp://127.0.0.1:1' });
    try {
      const response = await smtp.request('/api/dev/mailbox?to=a@example.com');
      expect(response.status).toBe(404);
      expect(ErrorEnvelope.parse(await response.json()).error.code).toBe('not_found');
    } finally {
      await smtp.close();
    }
  });

  it('answers 503 when the mail cannot be sent, and says why', async () => {
    const smtp = await createTestApp({ SMTP_URL: 'smtp://127.0.0.1:1' });
    try {
      const error = await failure(smtp.clientFor(null).sendOtp({ body: { email: freshEmail() } }));
      expect([error.status, error.code]).toEqual([503, 'service_unavailable']);
    } finally {
      await smtp.close();
    }
  });
});
