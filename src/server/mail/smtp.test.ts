import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app.ts';

interface Received {
  from: string;
  to: string[];
  data: string;
}

let smtp: SMTPServer;
let port: number;
const received: Received[] = [];
let t: TestApp;

beforeAll(async () => {
  // A real SMTP server on loopback, with the authentication a provider would ask for.
  smtp = new SMTPServer({
    authOptional: false,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    onAuth(auth, _session, callback) {
      if (auth.username === 'mailer' && auth.password === 'pw') callback(null, { user: 'mailer' });
      else callback(new Error('bad credentials'));
    },
    onData(stream, session, callback) {
      let data = '';
      stream.on('data', (chunk: Buffer) => {
        data += chunk.toString();
      });
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          data,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  port = (smtp.server.address() as AddressInfo).port;
  t = await createTestApp({
    SMTP_URL: `smtp://mailer:pw@127.0.0.1:${port}`,
    MAIL_FROM: 'Console <codes@media.test>',
  });
});

afterAll(async () => {
  await t.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

describe('sign-in mail over SMTP', () => {
  it('delivers the code that signs the person in', async () => {
    const email = 'smtp-person@example.com';
    const client = t.clientFor(null, '203.0.113.90');
    await client.sendOtp({ body: { email } });
    expect(received).toHaveLength(1);
    const mail = received[0]!;
    expect(mail.from).toBe('codes@media.test');
    expect(mail.to).toEqual([email]);
    const code = mail.data.match(/Your sign-in code is (\d{6})\./)?.[1];
    expect(code).toMatch(/^\d{6}$/);
    const session = await client.verifyOtp({ body: { email, code: code! } });
    expect(session.email).toBe(email);
    // With real mail there is no dev mailbox, and nothing was written to it.
    expect((await t.request(`/api/dev/mailbox?to=${email}`)).status).toBe(404);
    const { rows } = await t.db.query('SELECT count(*)::int AS n FROM dev_mailbox');
    expect(rows[0].n).toBe(0);
  });
});
