import type { IncomingMessage } from 'node:http';
import { isIPv4 } from 'node:net';
import type { Context } from 'hono';
import type { Services } from '../services.ts';
import { requestHeader } from './request-header.ts';

/** Headers a proxy adds: a request carrying one came through a proxy, even when the proxy is on this machine. */
const PROXY_HEADERS = ['x-forwarded-for', 'forwarded', 'x-real-ip', 'via'];

/** 127.0.0.0/8 and ::1, also as an IPv4-mapped IPv6 address (`::ffff:127.0.0.1`, a dual-stack socket's view). */
export function isLoopbackAddress(address: string): boolean {
  const v4 = address.toLowerCase().replace(/^::ffff:/, '');
  if (isIPv4(v4)) return v4.startsWith('127.');
  return address === '::1' || address === '0:0:0:0:0:0:0:1';
}

/**
 * Whether the request comes from this machine, judged by the connection itself (never by a forwarded
 * address): a socket from a loopback address, or no socket at all, which is a call made inside this
 * process (the tests' in-process requests); requests over the network always have one.
 */
function fromThisMachine(c: Context): boolean {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (!incoming) return true;
  const address = incoming.socket?.remoteAddress;
  return address !== undefined && isLoopbackAddress(address);
}

/**
 * Why the dev mailbox (and the demo sign-in, which reads it) does not answer this request, or null when
 * it does. It holds everyone's sign-in codes, so it answers only a caller on the server's own machine:
 * the socket's address is loopback and no proxy stands in between (a reverse proxy on this machine
 * connects from loopback on behalf of anyone). X-Forwarded-For is never read to let a request in.
 */
export function devMailboxRefusal(s: Services, c: Context): string | null {
  if (s.mailer.kind !== 'dev-mailbox') return 'There is no dev mailbox: this server sends real email.';
  if (!s.config.DEV_MAILBOX) return 'The dev mailbox is switched off on this server (DEV_MAILBOX=off).';
  const proxied = PROXY_HEADERS.some((name) => requestHeader(c, name) !== undefined);
  if (!fromThisMachine(c) || proxied) {
    return "The dev mailbox answers only requests made on the server's own machine (loopback), not through a proxy.";
  }
  return null;
}
