import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DemoAccount } from '../../../contract/auth.ts';
import { ErrorEnvelope } from '../../../contract/errors.ts';
import { DEMO_EMAIL, seedDemo } from '../../domain/analytics/demo-seed.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('GET /api/dev/demo', () => {
  it('says there is none before the demo is seeded (not an error: every sign-in page asks), then names the demo owner', async () => {
    const before = await t.request('/api/dev/demo');
    expect(before.status).toBe(200);
    expect(DemoAccount.parse(await before.json())).toEqual({ email: null });

    // The demo slug owned by someone else is not the demo.
    await seedDemo(t.db, { charges: 50, email: 'someone-else@example.com' });
    expect(await (await t.request('/api/dev/demo')).json()).toEqual({ email: null });

    await seedDemo(t.db, { charges: 50 });
    const after = await t.request('/api/dev/demo');
    expect(after.status).toBe(200);
    expect(after.headers.get('cache-control')).toBe('no-store');
    expect(DemoAccount.parse(await after.json())).toEqual({ email: DEMO_EMAIL });
  });

  it('signs in to the demo team through the dev mailbox with the address it gives', async () => {
    const client = t.clientFor(null, '192.0.2.77');
    const email = (await t.local.devDemo()).email ?? '';
    expect(email).toBe(DEMO_EMAIL);
    await client.sendOtp({ body: { email } });
    const code = (await t.local.devMailbox({ query: { to: email } })).data[0]?.code;
    expect(code).toMatch(/^\d{6}$/);
    const session = await client.verifyOtp({ body: { email, code: code! } });
    // Seeded before their first sign-in, the demo owner's default team is the demo team.
    const me = await t.clientFor(session.access_token).getMe();
    expect(me.team.name).toBe('Demo Studio');
  });

  it('does not exist when SMTP is configured, even with the demo seeded', async () => {
    const smtp = await createTestApp({ SMTP_URL: 'smtp://127.0.0.1:1' });
    try {
      await seedDemo(smtp.db, { charges: 50 });
      const response = await smtp.request('/api/dev/demo');
      expect(response.status).toBe(404);
      expect(ErrorEnvelope.parse(await response.json()).error.code).toBe('not_found');
    } finally {
      await smtp.close();
    }
  });
});
