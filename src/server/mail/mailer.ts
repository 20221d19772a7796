import type { Transporter } from 'nodemailer';
import type { Queryable } from '../db/pool.ts';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  /** The sign-in code, when the mail carries one; the dev mailbox shows it apart. */
  code?: string;
}

export interface Mailer {
  readonly kind: 'smtp' | 'dev-mailbox';
  send(mail: OutgoingMail): Promise<void>;
}

/** Without SMTP, mail lands in the dev mailbox table, readable at GET /api/dev/mailbox. */
export function createDevMailbox(db: Queryable): Mailer {
  return {
    kind: 'dev-mailbox',
    async send(mail) {
      await db.query('INSERT INTO dev_mailbox (to_email, subject, body, code) VALUES ($1, $2, $3, $4)', [
        mail.to,
        mail.subject,
        mail.text,
        mail.code ?? null,
      ]);
    },
  };
}

export function createSmtpMailer(smtpUrl: string, from: string): Mailer {
  // nodemailer is loaded with the first mail, not at every start (it is a tenth of a second of loading).
  let transport: Promise<Transporter> | null = null;
  const transporter = () =>
    (transport ??= import('nodemailer').then(({ default: nodemailer }) =>
      nodemailer.createTransport(smtpUrl),
    ));
  return {
    kind: 'smtp',
    async send(mail) {
      await (await transporter()).sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text });
    },
  };
}

export interface MailboxRow {
  to: string;
  subject: string;
  text: string;
  code: string | null;
  sent_at: string;
}

export async function readDevMailbox(db: Queryable, to: string, limit = 20): Promise<MailboxRow[]> {
  const { rows } = await db.query<{
    to_email: string;
    subject: string;
    body: string;
    code: string | null;
    sent_at: Date;
  }>(
    'SELECT to_email, subject, body, code, sent_at FROM dev_mailbox WHERE to_email = $1 ORDER BY id DESC LIMIT $2',
    [to, limit],
  );
  return rows.map((r) => ({
    to: r.to_email,
    subject: r.subject,
    text: r.body,
    code: r.code,
    sent_at: r.sent_at.toISOString(),
  }));
}
