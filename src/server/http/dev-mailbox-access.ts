import type { IncomingMessage } from 'node:http';
import { isIPv4 } from 'node:net';
import type { Context } from 'hono';
import type { Services } from '../services.ts';

/**
 * Header names a proxy or CDN adds to say whom or what it forwards: a request carrying any of them came
 * through a proxy, even when the proxy is on this machine. A pattern, not a list of known names, since
 * each product invents its own (`X-Forwarded-*`, `Forwarded`, `Via`, `X-Real-IP`, `X-Client-IP`,
 * `True-Client-IP`, `CF-Connecting-IP`, `Fastly-Client-IP`, `X-Cluster-Client-IP`, `X-Original-Forwarded-For`,
 * `X-ProxyUser-Ip`...): anything that names a forward, a proxy, a client or connecting IP, or an original
 * host or URL is refused.
 */
const FORWARDING_HEADER =
  /^(via|forwarded)$|forward|proxy|client-ip|clientip|connecting-ip|real-ip|remote-addr|^x-original-|^x-host$|^x-arr-/i;

/** Whether the request carries any forwarding header (its names are read from the request itself). */
function viaProxy(c: Context): boolean {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  const names = incoming ? Object.keys(incoming.headers) : [...c.req.raw.headers.keys()];
  return names.some((name) => FORWARDING_HEADER.test(name));
}

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
  if (!fromThisMachine(c) || viaProxy(c)) {
    return "The dev mailbox answers only requests made on the server's own machine (loopback), not through a proxy.";
  }
  return null;
}
