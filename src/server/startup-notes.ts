import type { Config } from './config.ts';
import { isLoopbackAddress } from './http/dev-mailbox-access.ts';

/** `127.0.0.1:8787 (this machine only)`: where the server listens, said for the person starting it. */
export function listenNote(host: string, port: number): string {
  const shown = host.includes(':') ? `[${host}]` : host;
  const reach =
    isLoopbackAddress(host) || host === 'localhost'
      ? 'this machine only; set HOST to listen on the network'
      : host === '0.0.0.0' || host === '::'
        ? 'every network interface'
        : 'that address';
  return `${shown}:${port} (${reach})`;
}

/** How sign-in codes reach people, and so whether the dev mailbox is on. */
export function signInMailNote(config: Pick<Config, 'SMTP_URL' | 'DEV_MAILBOX'>): string {
  if (config.SMTP_URL) return 'mailed through SMTP_URL (no dev mailbox)';
  if (!config.DEV_MAILBOX) return 'no SMTP_URL and DEV_MAILBOX=off: codes are not delivered anywhere';
  return 'no SMTP_URL: dev mailbox on, readable only from this machine at /api/dev/mailbox?to=<email> (DEV_MAILBOX=off closes it)';
}

/** The lines `npm start` prints once it listens. */
export function startupBanner(config: Config, url: string): string {
  const port = Number(new URL(url).port);
  return [
    '',
    `  Media Console is running at ${config.PUBLIC_URL}`,
    `  Listening on ${listenNote(config.HOST, port)}`,
    `  Sign-in codes: ${signInMailNote(config)}`,
    '',
    '',
  ].join('\n');
}
